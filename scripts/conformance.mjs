#!/usr/bin/env node
// `pnpm conformance`: builds what the CLI needs (turbo, its cache makes a second run instant),
// then runs the CLI in this same process. A Ctrl-C during the build is kept and ends the command
// there: run as `turbo … && exec node cli.js` in a shell, a Ctrl-C that reached the shell while
// turbo was finishing could be lost, and the run went on as if nothing had been asked.
import { spawn } from 'node:child_process';

// The CLI's own exit codes and words for an interrupt before the run (src/run/interruptPolicy.ts,
// earlyInterrupt.ts): written again here because the CLI is not built yet at this point.
const EXIT_CODE_OF_SIGNAL = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
let interrupted;
const keep = (signal) => {
  interrupted ??= signal;
};
for (const signal of Object.keys(EXIT_CODE_OF_SIGNAL)) process.on(signal, keep);

// Not spawnSync: the event loop must keep running for the signal listeners above to be called.
const build = await new Promise((resolve) => {
  const child = spawn(
    'turbo',
    ['run', 'build', '--filter=@cloud-api/conformance...', '--output-logs=errors-only'],
    {
      // Its output goes to stderr: stdout carries only the reports (`pnpm -s conformance --reporter json`).
      stdio: ['inherit', process.stderr, 'inherit'],
    },
  );
  child.on('error', (error) => resolve({ error }));
  child.on('close', (status) => resolve({ status }));
});
if (interrupted) {
  process.stderr.write(`\nInterrupted (${interrupted}) before the run started: nothing was sent.\n`);
  process.exit(EXIT_CODE_OF_SIGNAL[interrupted]);
}
if (build.error) {
  process.stderr.write(`conformance: could not run the build (turbo): ${build.error.message}\n`);
  process.exit(2);
}
if (build.status !== 0) process.exit(build.status ?? 1);
for (const signal of Object.keys(EXIT_CODE_OF_SIGNAL)) process.removeListener(signal, keep);
await import('../packages/conformance/dist/cli.js');
