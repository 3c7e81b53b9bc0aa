import type { RuleEntry } from '../ruleCatalogue/index.js';

/** One fault's verdict as the kill summary needs it: what broke, why, and which rules noticed. */
export interface FaultKill {
  readonly id: string;
  /** The bug's cause (the sandbox catalogue's `mechanism`), e.g. lenient-parse. */
  readonly mechanism: string;
  readonly failedRules: readonly string[];
}

/** How hard the mutation run hit one rule of the catalogue. */
export interface RuleKill {
  readonly rule: string;
  readonly level: RuleEntry['level'];
  /** Faults under which the rule failed. */
  readonly faults: readonly string[];
  /** The distinct mechanisms of those faults, sorted. */
  readonly mechanisms: readonly string[];
  /** Why the rule is outside the mechanism check, if it is. */
  readonly exempt?: string;
}

/**
 * Rules about @cloud-api/client rather than the target: the suite drives the (correct) client
 * against the sandbox, so no sandbox fault can make them fail, and one that did would be a false
 * alarm. The catalogue marks them by a latitude that starts "Client-side rule".
 */
export function judgesTheClient(rule: Pick<RuleEntry, 'latitude'>): boolean {
  return /^Client-side rule\b/.test(rule.latitude ?? '');
}

/** For every rule of the catalogue, in catalogue order: the faults and mechanisms that killed it. */
export function ruleKills(faults: readonly FaultKill[], rules: readonly RuleEntry[]): RuleKill[] {
  return rules.map((rule) => {
    const killers = faults.filter((fault) => fault.failedRules.includes(rule.id));
    return {
      rule: rule.id,
      level: rule.level,
      faults: killers.map((fault) => fault.id),
      mechanisms: [...new Set(killers.map((fault) => fault.mechanism))].sort(),
      ...(judgesTheClient(rule) ? { exempt: 'judges the client, which no sandbox fault changes' } : {}),
    };
  });
}

/**
 * MUST rules killed by faults of fewer than `minimum` distinct mechanisms: a rule only one kind
 * of bug trips has not shown it catches the next kind.
 */
export function mechanismGaps(kills: readonly RuleKill[], minimum: number): RuleKill[] {
  return kills.filter(
    (kill) => kill.level === 'MUST' && kill.exempt === undefined && kill.mechanisms.length < minimum,
  );
}

export function renderRuleKills(kills: readonly RuleKill[]): string {
  const width = Math.max(4, ...kills.map((kill) => kill.rule.length));
  const lines = [`${'RULE'.padEnd(width)}  LEVEL   FAULTS  MECHANISMS`];
  for (const kill of kills) {
    const mechanisms = kill.mechanisms.length > 0 ? ` (${kill.mechanisms.join(', ')})` : '';
    lines.push(
      `${kill.rule.padEnd(width)}  ${kill.level.padEnd(6)}  ${String(kill.faults.length).padStart(6)}  ${kill.mechanisms.length}${mechanisms}${kill.exempt ? `  [exempt: ${kill.exempt}]` : ''}`,
    );
  }
  return lines.join('\n');
}
