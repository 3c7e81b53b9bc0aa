import type fc from 'fast-check';
import { findRule } from '../ruleCatalogue/index.js';
import type { Session } from '../session/session.js';
import type { CaseVerdict } from './caseVerdict.js';
import type { FailureReport } from './failureReport.js';

export interface PropertyOptions {
  /** Upper bound on runs for checks that create resources, whatever the depth. */
  readonly maxRuns?: number;
  /** Cases always run first (finite domains are covered whole, not sampled). */
  readonly examples?: readonly unknown[];
  /**
   * The examples are the whole domain and each is deterministic: they run once and nothing is
   * sampled after them (a repeat would send the same requests again for no new evidence).
   */
  readonly exhaustive?: boolean;
  /**
   * On a target that obeys the document, no case's verdict depends on which cases ran before it:
   * refused probes, reads, and repeats of one request whose state answers (404/409) the check
   * accepts. Such cases may be sent `concurrency` at a time. Never for checks whose cases change
   * state they later read or rely on order (creates, deletes, idempotency replays, a NAT rule
   * read back or restored).
   */
  readonly independent?: boolean;
  /**
   * Puts back what the cases share before a concurrent failure is looked for again one case at
   * a time, so the sequential run blames the case that breaks the rule, not the state it left.
   */
  readonly beforeRerun?: () => Promise<void>;
}

/** What a check's body is handed: the session, and the only ways it may end other than passing. */
export interface CheckContext {
  readonly session: Session;
  readonly rule: string;
  /** Aborted when the run is interrupted, its deadline passes or the check runs out of time. */
  readonly signal: AbortSignal;
  skip(reason: string): never;
  /** Ends the check without a verdict: it saw nothing that could show the rule kept or broken. */
  inconclusive(reason: string, remedy?: string): never;
  /**
   * Runs a fast-check property; on failure reports rule, seed, path, shrunk request/response and
   * writes a replay file. Each case says whether it observed what the rule checks; a property
   * none of whose cases did is inconclusive.
   */
  check<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<CaseVerdict>,
    options?: PropertyOptions,
  ): Promise<void>;
  /** Records what the run created, and whether it could be cleaned up. */
  recordCreated(kind: string, id: string, cleanup: string): void;
  requireMutations(): void;
  /**
   * Names part of the rule this check could not reach on this profile (an operation no identity
   * can probe). The check still ends on what it saw; the report lists the gap, so a pass never
   * reads as covering what it did not send, and the strict gate refuses it.
   */
  notChecked(what: string, remedy: string): void;
}

/** Part of a rule a check could not reach, and what would let it. */
export interface CheckGap {
  readonly what: string;
  readonly remedy: string;
}

/** One check of one rule, as data: the registry lists them, the engine runs them. */
export interface Check {
  readonly rule: string;
  /** Starts with the rule ID (`WS-2 rejects …`): the name reports, replays and `--rules` use. */
  readonly title: string;
  /** Longest the check may run before it is stopped and reported incomplete. */
  readonly timeoutMs: number;
  run(t: CheckContext): Promise<void>;
}

const DEFAULT_CHECK_TIMEOUT_MS = 120_000;

/** Declares a check of a catalogued rule; an unknown rule ID is a programming error, caught at load. */
export function defineCheck(
  rule: string,
  description: string,
  run: (t: CheckContext) => Promise<void>,
  options: { readonly timeoutMs?: number } = {},
): Check {
  if (!findRule(rule))
    throw new Error(`defineCheck: unknown rule ${rule}; add it to src/ruleCatalogue/rules.ts`);
  return Object.freeze({
    rule,
    title: `${rule} ${description}`,
    timeoutMs: options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    run,
  });
}

/** How one check ended, as the check runner returns it: each state carries what explains it. */
export type CheckVerdict =
  | { readonly state: 'passed' }
  | {
      readonly state: 'failed';
      /** Counterexamples with their exchanges and replay files (a check's error without one, too). */
      readonly failures: readonly FailureReport[];
      readonly errors: readonly string[];
    }
  | { readonly state: 'inconclusive'; readonly reason: string; readonly remedy?: string }
  | { readonly state: 'incomplete'; readonly reason: string }
  | { readonly state: 'skipped'; readonly reason: string; readonly declared: boolean };

/** A check's typed result, with what its traffic showed of the spec. */
export interface CheckResult {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
  readonly verdict: CheckVerdict;
  readonly durationMs: number;
  /** What the check could not reach on this profile (absent when it reached everything). */
  readonly gaps?: readonly CheckGap[];
}
