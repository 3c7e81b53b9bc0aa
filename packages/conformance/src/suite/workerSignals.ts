/**
 * Loaded by every vitest worker process of a conformance run (a setup file, see runConformance).
 * A terminal's Ctrl-C, and a SIGTERM sent to the process group, reach the workers as well as the
 * CLI; by default they would die on the spot, in the middle of a check that is changing a
 * resource, and never put it back. The CLI process handles both signals and cancels the run, so
 * the check in progress stops at its next step and undoes its changes; a worker whose CLI is
 * gone (a second Ctrl-C) exits with it.
 */
const installed = Symbol.for('@cloud-api/conformance/worker-signals');
const registry = globalThis as { [installed]?: true };

// With isolate: false one worker runs every file, and setup files run once per file.
if (!registry[installed]) {
  registry[installed] = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
}
