import { type RuleEntry, rules, type TargetKind } from './rules.js';

export { type RuleEntry, type RuleLevel, rules, type TargetKind, type Threat } from './rules.js';
export { isThreatMechanism, type ThreatMechanism, threatMechanisms } from './threatMechanisms.js';

const byId = new Map(rules.map((rule) => [rule.id, rule]));

export function findRule(id: string): RuleEntry | undefined {
  return byId.get(id);
}

/** The rule ID a test title starts with (`WS-2 rejects ...` → `WS-2`), if any. */
export function ruleIdOfTitle(title: string): string | undefined {
  const match = /^([A-Z]+-\d+)\b/.exec(title);
  return match?.[1];
}

/**
 * Expands a selection such as `WS-*,AUTH-1` into rule IDs. Throws naming the pattern that
 * matched nothing, so a typo never silently selects zero rules.
 */
export function selectRules(selection: string): string[] {
  const selected = new Set<string>();
  for (const raw of selection.split(',')) {
    const pattern = raw.trim();
    if (!pattern) continue;
    const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`, 'i');
    const matched = rules.filter((rule) => regex.test(rule.id));
    if (matched.length === 0) {
      throw new Error(
        `--rules: "${pattern}" matches no rule. Known rules: ${rules.map((r) => r.id).join(', ')}`,
      );
    }
    for (const rule of matched) selected.add(rule.id);
  }
  return rules.filter((rule) => selected.has(rule.id)).map((rule) => rule.id);
}

export function canCheckOn(rule: RuleEntry, target: TargetKind): boolean {
  return rule.targets.includes(target);
}
