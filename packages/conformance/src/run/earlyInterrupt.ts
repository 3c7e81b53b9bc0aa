import { EXIT_CODE_OF_SIGNAL, type StopSignal } from './interruptPolicy.js';

const handlers = new Map<StopSignal, () => void>();

/**
 * Loading the engine takes about half a second, and a Ctrl-C in that time would end the process
 * without a word: until the run's own handlers take over, a signal says nothing was sent yet.
 */
export function installEarlyInterrupt(): void {
  for (const signal of Object.keys(EXIT_CODE_OF_SIGNAL) as StopSignal[]) {
    const handler = (): void => {
      process.stderr.write(`\nInterrupted (${signal}) before the run started: nothing was sent.\n`);
      process.exit(EXIT_CODE_OF_SIGNAL[signal]);
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
}

/** The run's handlers take over from here. */
export function releaseEarlyInterrupt(): void {
  for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  handlers.clear();
}
