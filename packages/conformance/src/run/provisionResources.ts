import { spawn } from 'node:child_process';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import { type ProfileResources, resourcesProblems, type TargetProfile } from '../targetProfile/index.js';
import { shellQuoted } from './invocation.js';
import { RunSetupError } from './runSetupError.js';

/** How long a provision command may take unless the profile says (`provision.timeoutMs`). */
export const DEFAULT_PROVISION_TIMEOUT_MS = 120_000;
/** A resources section is a few hundred bytes; a command printing more than this is printing something else. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** A stderr line longer than this is passed on in pieces (so one endless line cannot fill memory). */
const MAX_LINE_CHARS = 8 * 1024;
/** After SIGTERM, how long the command has to end before SIGKILL. */
const KILL_GRACE_MS = 2_000;

const EXAMPLE =
  '{"deletableGpuVmIds": ["vm-1", "vm-2", "vm-3"], "releasableReservedIpIds": ["rip-1", "rip-2"]}';

export interface ProvisionContext {
  /** The profile as loaded; its `provision` says what to run. */
  readonly profile: TargetProfile;
  /** Where the command runs: the profile file's directory (so `./provision.mjs` is beside it). */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly redactor: SecretRedactor;
  /** Ctrl-C or the run's deadline: the command is stopped. */
  readonly signal?: AbortSignal | undefined;
  readonly runId?: string | undefined;
  /** Each line the command writes to stderr, already redacted (the CLI prints them on stderr). */
  readonly onStderrLine: (line: string) => void;
}

/** How a provision command ended, before its output is read. */
type Ending =
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'timeout' | 'stopped' | 'too-much-output' }
  | { readonly kind: 'spawn-error'; readonly code: string | undefined };

/**
 * Runs the profile's provision command (argv, no shell) and returns the resources it printed, which
 * replace the profile's `resources` for this run: every run gets throw-away VMs and IPs of its own
 * instead of finding what an earlier run consumed. Anything else (not started, non-zero exit, timeout,
 * not JSON, not a resources section) is a RunSetupError saying what was wrong and what to do; no
 * output of the command is quoted but its stderr, redacted, line by line.
 */
export async function provisionResources(context: ProvisionContext): Promise<ProfileResources> {
  const provision = context.profile.provision;
  if (!provision) throw new Error('provisionResources: the profile has no provision command');
  const [program, ...args] = provision.command;
  const shown = context.redactor.redact(provision.command.map(shellQuoted).join(' '));
  const timeoutMs = provision.timeoutMs ?? DEFAULT_PROVISION_TIMEOUT_MS;
  const { ending, stdout } = await run(program as string, args, timeoutMs, context);
  const failure = endingProblem(ending, shown, program as string, timeoutMs, context);
  if (failure) throw new RunSetupError(failure);
  return parsedResources(stdout, shown);
}

function run(
  program: string,
  args: readonly string[],
  timeoutMs: number,
  context: ProvisionContext,
): Promise<{ ending: Ending; stdout: Buffer }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: context.cwd,
      env: {
        ...context.env,
        // What a script needs to create resources where the run goes, without parsing the profile.
        CONFORMANCE_BASE_URL: context.profile.baseUrl,
        CONFORMANCE_ENVIRONMENT: context.profile.environment,
        CONFORMANCE_WORKSPACE_ID: context.profile.workspaces.primary,
        ...(context.runId ? { CONFORMANCE_RUN_ID: context.runId } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so stopping it stops whatever it started too.
      detached: true,
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let ending: Ending | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (why: Ending): void => {
      if (ending) return;
      ending = why;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop({ kind: 'timeout' }), timeoutMs);
    const onAbort = (): void => stop({ kind: 'stopped' });
    if (context.signal?.aborted) onAbort();
    context.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > MAX_OUTPUT_BYTES) stop({ kind: 'too-much-output' });
      else chunks.push(chunk);
    });
    const lines = lineSplitter((line) => context.onStderrLine(context.redactor.redact(line)));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', lines.push);
    child.stderr.on('end', lines.end);
    child.on('error', (error: NodeJS.ErrnoException) => {
      ending ??= { kind: 'spawn-error', code: error.code };
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      context.signal?.removeEventListener('abort', onAbort);
      resolve({ ending: ending ?? { kind: 'exited', code, signal }, stdout: Buffer.concat(chunks) });
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Calls `onLine` with each complete line written, and with the rest at the end. */
function lineSplitter(onLine: (line: string) => void): { push: (text: string) => void; end: () => void } {
  let pending = '';
  return {
    push(text) {
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        onLine(pending.slice(0, newline).replace(/\r$/, ''));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      while (pending.length > MAX_LINE_CHARS) {
        onLine(pending.slice(0, MAX_LINE_CHARS));
        pending = pending.slice(MAX_LINE_CHARS);
      }
    },
    end() {
      if (pending.length > 0) onLine(pending);
      pending = '';
    },
  };
}

/** What went wrong with the command itself, in one sentence with what to do; undefined when it exited 0. */
function endingProblem(
  ending: Ending,
  shown: string,
  program: string,
  timeoutMs: number,
  context: ProvisionContext,
): string | undefined {
  const fix =
    'Fix provision.command in the profile, or remove provision to use the resources section as it is.';
  switch (ending.kind) {
    case 'spawn-error': {
      const why =
        ending.code === 'ENOENT'
          ? 'no such program (not on PATH, and no such file relative to the profile)'
          : ending.code === 'EACCES'
            ? 'it is not executable (run it through its interpreter, e.g. ["node", "provision.mjs"])'
            : (ending.code ?? 'it could not be started');
      return `provision: cannot start ${context.redactor.redact(shellQuoted(program))} in ${context.cwd}: ${why}. ${fix}`;
    }
    case 'timeout':
      return `provision: ${shown} did not finish within ${timeoutMs / 1000} s (provision.timeoutMs), so it was stopped and no rule was run. Raise provision.timeoutMs, or make the command faster.`;
    case 'stopped':
      return `provision: ${shown} was stopped before it finished (the run was interrupted or its --deadline passed), so no rule was run.`;
    case 'too-much-output':
      return `provision: ${shown} printed more than ${MAX_OUTPUT_BYTES} bytes on stdout, so it was stopped; it must print only the resources as one JSON object, and its log lines on stderr.`;
    case 'exited':
      if (ending.code === 0) return undefined;
      return `provision: ${shown} ${ending.signal ? `was killed by ${ending.signal}` : `exited with code ${ending.code}`}, so the run has no fresh resources and no rule was run. Fix what its stderr (above) says, or provision.command in the profile; or remove provision to use the resources section as it is.`;
  }
}

function parsedResources(stdout: Buffer, shown: string): ProfileResources {
  const text = stdout.toString('utf8').trim();
  const expected = `one JSON object shaped like the profile's resources section, e.g. ${EXAMPLE}, with its log lines on stderr`;
  if (text === '')
    throw new RunSetupError(`provision: ${shown} printed nothing on stdout; it must print ${expected}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which could hold anything the command printed.
    throw new RunSetupError(
      `provision: what ${shown} printed on stdout (${stdout.byteLength} bytes) is not JSON; it must print ${expected}.`,
    );
  }
  const problems = resourcesProblems(parsed);
  if (problems.length > 0)
    throw new RunSetupError(
      `provision: what ${shown} printed is not a resources section: ${problems.join('; ')}. It must print ${expected}.`,
    );
  return parsed as ProfileResources;
}
