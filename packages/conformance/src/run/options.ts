import { RunSetupError } from './runSetupError.js';

/** An integer option's range and what it counts, for the one message both CLI and engine print. */
export interface IntegerLimits {
  readonly min: number;
  readonly max: number;
  readonly what: string;
}

/** Every integer option's bounds, in one place: the CLI's parsers and the engine both read these. */
export const OPTION_LIMITS = {
  /** Runs per property beyond this would take hours against a real target: surely a typo. */
  depth: { min: 1, max: 10_000, what: 'runs per property' },
  seed: { min: 0, max: 2 ** 31 - 1, what: 'the seed to reproduce a run' },
  concurrency: { min: 1, max: 32, what: 'requests in flight' },
  deadline: { min: 1, max: 86_400, what: 'seconds for the whole run' },
} as const satisfies Record<string, IntegerLimits>;

export const MAX_DEPTH = OPTION_LIMITS.depth.max;
export const MAX_SEED = OPTION_LIMITS.seed.max;
export const MAX_CONCURRENCY = OPTION_LIMITS.concurrency.max;
/** Enough to hide a remote target's latency, few enough that no target reads it as a burst. */
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_DEPTH = 25;
export const DEFAULT_DEADLINE_SECONDS = 600;

/**
 * `value` (a number, or the text typed on a command line) as an integer within `limits`; anything
 * else is a RunSetupError naming the option, the range and what the option means.
 */
export function integerOption(name: string, value: number | string, limits: IntegerLimits): number {
  const number = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number < limits.min || number > limits.max)
    throw new RunSetupError(
      `${name} ${String(value)}: must be an integer from ${limits.min} to ${limits.max} (${limits.what})`,
    );
  return number;
}
