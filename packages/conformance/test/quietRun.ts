import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../src/run/engine.js';
import type { RunOutcome } from '../src/run/outcome.js';
import type { TargetProfile } from '../src/targetProfile/index.js';

/** Which rules a quiet run checks, how deep, from which seed. */
export interface QuietRunOptions {
  readonly rules: string;
  readonly depth: number;
  readonly seed: number;
  readonly concurrency?: number;
}

/** A quiet run's outcome, its exit code and what it would have printed. */
export interface KeptRun {
  readonly outcome: RunOutcome;
  readonly exitCode: number;
  readonly printed: string;
}

/** Runs the selected rules against `profile` with no reporter, keeping what it prints instead. */
export async function keptRun(profile: TargetProfile, options: QuietRunOptions): Promise<KeptRun> {
  const printed: string[] = [];
  const { outcome, exitCode } = await runConformance({
    profile,
    rules: options.rules,
    depth: options.depth,
    seed: options.seed,
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    reporters: [],
    outDir: mkdtempSync(join(tmpdir(), 'conformance-quiet-')),
    print: (text) => printed.push(text),
  });
  return { outcome, exitCode, printed: printed.join('\n') };
}

/** Runs the selected rules against `profile` with no reporter and no output, and returns the outcome. */
export async function quietRun(profile: TargetProfile, options: QuietRunOptions): Promise<RunOutcome> {
  return (await keptRun(profile, options)).outcome;
}
