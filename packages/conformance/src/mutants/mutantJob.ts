/** One sandbox fault or variant the mutation run starts the suite against. */
export interface MutantJob {
  readonly kind: 'fault' | 'variant';
  readonly id: string;
  readonly rule?: string;
  readonly mechanism?: string;
}

/** What every mutant run of one mutation run shares. */
export interface MutantSettings {
  /** Runs per property for variants. */
  readonly depth: number;
  /** Runs per property for faults. */
  readonly faultDepth: number;
  readonly seed: number;
}

/** A mutant run's end as the suite reported it, whichever way the suite was started. */
export interface MutantRunEnd {
  readonly failedRules: readonly string[];
  /** The run's own errors: a run that had them proves nothing either way. */
  readonly runErrors: readonly string[];
  readonly exitCode: number;
  /** The preflight's refusal (no rule ran), when the target did not answer like the API. */
  readonly preflightRefusal?: string;
}

/** Starts the suite against one mutant and says how its run ended. */
export type MutantExecutor = (job: MutantJob, settings: MutantSettings) => Promise<MutantRunEnd>;

/** Each mutant's run stops by itself: a suite hung on one mutant is reported, not waited for. */
export const MUTANT_DEADLINE_SECONDS = 120;

/** The rule whose sentence the preflight checks: a target it refuses is counted as failing it. */
export const PREFLIGHT_RULE = 'ENV-2';
