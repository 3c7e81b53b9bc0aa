import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FailureReport } from '../checks/failureReport.js';
import { findRule } from '../ruleCatalogue/index.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import { OPTION_LIMITS } from './options.js';
import { RunSetupError } from './runSetupError.js';

/**
 * A failure to re-run exactly: the check, and the fast-check seed and path of its shrunk
 * counterexample. Written by the check runner, read by `--replay`; this module is the format.
 */
export interface ReplayCase {
  /** The target the failure was seen on, as `--target` named it; absent in files of older versions. */
  readonly target?: RecordedTarget;
  readonly rule: string;
  /** The check's title: checks are found by it. */
  readonly test: string;
  readonly seed: number;
  readonly path: string;
  readonly depth?: number;
}

/** The target of a run as a replay file records it: never a token. */
export interface RecordedTarget {
  /** `sandbox`, `prism`, an absolute profile path, or `(profile object)` for programmatic runs. */
  readonly target: string;
  /** A digest of the profile's non-secret fields, to tell when the profile changed since. */
  readonly profileDigest: string;
  /** `--sandbox-fault` / `--sandbox-variant` the embedded sandbox was started with. */
  readonly sandboxFault?: string;
  readonly sandboxVariant?: string;
}

const KIND = 'conformance-replay';
const HINT = 'pass the file named after "replay:" in a failure report';
const FAST_CHECK_PATH = /^\d+(:\d+)*$/;

/** Writes `report` (already redacted) as a replay file under `runDir/replays/` and returns its path. */
export function writeReplayFile(
  runDir: string,
  report: FailureReport,
  context: { readonly target: RecordedTarget; readonly depth: number; readonly runId?: string },
  redactor: SecretRedactor,
): string {
  const dir = join(runDir, 'replays');
  mkdirSync(dir, { recursive: true });
  let stamp = Date.now();
  while (existsSync(join(dir, `${report.rule}-${stamp}.json`))) stamp++;
  const file = join(dir, `${report.rule}-${stamp}.json`);
  const content = {
    kind: KIND,
    ...(context.runId ? { runId: context.runId } : {}),
    target: context.target,
    depth: context.depth,
    ...report,
    replayFile: file,
  };
  writeFileSync(file, redactor.redact(`${JSON.stringify(content, null, 2)}\n`));
  return file;
}

/** Reads and checks a replay file; every problem is one RunSetupError saying what to do. */
export function readReplayFile(path: string, knownTitle: (title: string) => boolean): ReplayCase {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RunSetupError(
      `--replay ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a replay file' : `cannot read it (${code ?? (error as Error).message})`}; ${HINT}`,
    );
  }
  let parsed: Partial<ReplayCase> & { kind?: unknown };
  try {
    parsed = JSON.parse(text) as Partial<ReplayCase> & { kind?: unknown };
  } catch {
    throw new RunSetupError(`--replay ${path}: not JSON, so not a replay file; ${HINT}`);
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    parsed.kind !== KIND ||
    typeof parsed.rule !== 'string' ||
    typeof parsed.test !== 'string' ||
    typeof parsed.seed !== 'number' ||
    typeof parsed.path !== 'string'
  ) {
    throw new RunSetupError(
      `--replay ${path}: not a replay file written by a conformance failure (needs kind, rule, test, seed, path); ${HINT}`,
    );
  }
  const { depth: depthLimits, seed: seedLimits } = OPTION_LIMITS;
  const problem = !findRule(parsed.rule)
    ? `rule ${JSON.stringify(parsed.rule)} is not in this suite's catalogue`
    : !knownTitle(parsed.test)
      ? `check ${JSON.stringify(parsed.test)} is not in this suite (written by another version?)`
      : !FAST_CHECK_PATH.test(parsed.path)
        ? `path ${JSON.stringify(parsed.path)} is not a fast-check path (numbers separated by ":")`
        : !Number.isInteger(parsed.seed) || parsed.seed < -seedLimits.max - 1 || parsed.seed > seedLimits.max
          ? `seed ${parsed.seed} is not a 32-bit integer`
          : parsed.depth !== undefined &&
              (typeof parsed.depth !== 'number' ||
                !Number.isInteger(parsed.depth) ||
                parsed.depth < depthLimits.min ||
                parsed.depth > depthLimits.max)
            ? `depth ${JSON.stringify(parsed.depth)} is not an integer from ${depthLimits.min} to ${depthLimits.max}`
            : undefined;
  if (problem) throw new RunSetupError(`--replay ${path}: ${problem}; ${HINT}`);
  const target = recordedTarget((parsed as { target?: unknown }).target);
  return {
    ...(target ? { target } : {}),
    rule: parsed.rule,
    test: parsed.test,
    seed: parsed.seed,
    path: parsed.path,
    ...(parsed.depth !== undefined ? { depth: parsed.depth } : {}),
  };
}

/** The recorded target of a replay file, when it has one in this version's form. */
function recordedTarget(value: unknown): RecordedTarget | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { target, profileDigest, sandboxFault, sandboxVariant } = value as Record<string, unknown>;
  if (typeof target !== 'string' || typeof profileDigest !== 'string') return undefined;
  return {
    target,
    profileDigest,
    ...(typeof sandboxFault === 'string' ? { sandboxFault } : {}),
    ...(typeof sandboxVariant === 'string' ? { sandboxVariant } : {}),
  };
}
