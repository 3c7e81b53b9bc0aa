import type { TargetKind } from '../ruleCatalogue/index.js';
import type { TargetProfile } from '../targetProfile/index.js';

/** A failure to re-run exactly: the fast-check seed and path of the shrunk counterexample. */
export interface ReplayCase {
  readonly testTitle: string;
  readonly seed: number;
  readonly path: string;
}

/** What the engine hands to the property files (through vitest's `provide`), never on a command line. */
export interface RunConfig {
  readonly profile: TargetProfile;
  readonly targetKind: TargetKind;
  readonly depth: number;
  readonly seed: number;
  /** Most requests in flight at once, for checks whose cases are independent (1: one at a time). */
  readonly concurrency: number;
  /** Directory for replay files and the created-resources log of this run. */
  readonly runDir: string;
  readonly deadlineAt: number;
  readonly replay?: ReplayCase;
  /** Every secret of the run (token fields, `${VAR}` values, derived tokens): the workers redact them too. */
  readonly secrets: readonly string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceRun: RunConfig;
  }
}
