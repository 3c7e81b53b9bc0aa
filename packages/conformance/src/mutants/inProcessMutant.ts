import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../run/engine.js';
import type { Reporter } from '../run/events.js';
import { RunSetupError } from '../run/runSetupError.js';
import {
  MUTANT_DEADLINE_SECONDS,
  type MutantJob,
  type MutantRunEnd,
  type MutantSettings,
} from './mutantJob.js';

/** The mutation run reads the outcome itself: no table, no files. */
const silent: Reporter = { name: 'mutant', onEvent: () => undefined };

/** One mutant run by the engine in this thread, against its own embedded sandbox. */
export async function runMutantInProcess(job: MutantJob, settings: MutantSettings): Promise<MutantRunEnd> {
  const outDir = mkdtempSync(join(tmpdir(), `conformance-mutant-${job.id}-`));
  try {
    const { outcome, exitCode } = await runConformance({
      target: 'sandbox',
      ...(job.kind === 'fault' ? { sandboxFault: job.id } : { sandboxVariant: job.id }),
      depth: job.kind === 'fault' ? settings.faultDepth : settings.depth,
      seed: settings.seed,
      deadlineMs: MUTANT_DEADLINE_SECONDS * 1000,
      reporters: [silent],
      outDir,
      print: () => undefined,
    });
    return {
      failedRules: outcome.rules.filter((rule) => rule.state === 'failed').map((rule) => rule.id),
      runErrors: outcome.runErrors,
      exitCode,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The preflight refuses a target whose base URL does not answer like the API.
    if (error instanceof RunSetupError && message.startsWith('preflight: '))
      return { failedRules: [], runErrors: [], exitCode: 2, preflightRefusal: message };
    return { failedRules: [], runErrors: [`the suite's run ended with an error: ${message}`], exitCode: 2 };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
