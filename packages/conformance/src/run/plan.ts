import type { RegisteredCheck } from '../checks/registry.js';
import { rules, selectRules } from '../ruleCatalogue/index.js';
import type { TargetProfile } from '../targetProfile/index.js';
import { DEFAULT_CONCURRENCY } from './options.js';
import type { ReplayCase } from './replayFile.js';
import { RunSetupError } from './runSetupError.js';

/** `--shard i/n` as numbers; anything else is a RunSetupError with an example. */
export function parseShard(shard: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(shard);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count || count > 1000)
    throw new RunSetupError(`--shard ${shard}: use i/n with 1 <= i <= n, e.g. --shard 1/3`);
  return { index, count };
}

/** Rules selected by `--rules`: an empty selection is a mistake, never "every rule". */
export function ruleSelection(selection: string): string[] {
  if (selection.split(',').every((part) => part.trim() === ''))
    throw new RunSetupError(
      `--rules ${JSON.stringify(selection)}: names no rule. Pass rule IDs or patterns such as "WS-*,AUTH-1", or leave --rules out to run every rule.`,
    );
  try {
    return selectRules(selection);
  } catch (error) {
    throw new RunSetupError((error as Error).message);
  }
}

export interface PlanOptions {
  readonly rules?: string;
  readonly shard?: string;
  readonly replay?: ReplayCase;
}

/**
 * The checks a run takes, in registry order: the replayed one alone, else those of the selected
 * rules, else all; a shard keeps every check of a rule together, rules dealt round-robin in
 * catalogue order so shards stay about the same size.
 */
export function planChecks(registry: readonly RegisteredCheck[], options: PlanOptions): RegisteredCheck[] {
  if (options.replay) {
    const title = options.replay.test;
    return registry.filter((check) => check.title === title);
  }
  const selected = options.rules !== undefined ? new Set(ruleSelection(options.rules)) : undefined;
  let planned = registry.filter((check) => !selected || selected.has(check.rule));
  if (options.shard) {
    const { index, count } = parseShard(options.shard);
    const ruleIds = rules.map((rule) => rule.id);
    planned = planned.filter((check) => ruleIds.indexOf(check.rule) % count === index - 1);
  }
  return planned;
}

/**
 * Whether a run-wide audit of `rule` (RESP-1's schema audit, ASYNC-4's identifier audit) belongs
 * to this plan: its rule selected and in this shard, and no replay.
 */
export function plansRunAudit(options: PlanOptions, rule: string): boolean {
  if (options.replay) return false;
  if (options.rules !== undefined && !ruleSelection(options.rules).includes(rule)) return false;
  if (options.shard) {
    const { index, count } = parseShard(options.shard);
    return rules.findIndex((entry) => entry.id === rule) % count === index - 1;
  }
  return true;
}

/**
 * Requests in flight at once: the option, else the profile, else the default; never more than
 * the profile's rate limit lets arrive in one second. A replay takes its one case alone (the
 * property runner gives it one lane) but keeps this limit, so a case that sends requests together
 * (the CONC rules) can still reproduce.
 */
export function effectiveConcurrency(requested: number | undefined, profile: TargetProfile): number {
  const wanted = requested ?? profile.concurrency ?? DEFAULT_CONCURRENCY;
  const byRate = profile.rateLimitPerSecond ? Math.max(1, Math.floor(profile.rateLimitPerSecond)) : wanted;
  return Math.max(1, Math.min(wanted, byRate));
}
