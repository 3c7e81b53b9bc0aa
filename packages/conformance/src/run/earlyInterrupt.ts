import { EXIT_CODE_OF_SIGNAL, type StopSignal } from './interruptPolicy.js';

/** Until the run takes over: a signal says nothing was sent yet, and ends the process. */
const beforeTheRun = (signal: StopSignal): void => {
  process.stderr.write(`\nInterrupted (${signal}) before the run started: nothing was sent.\n`);
  process.exit(EXIT_CODE_OF_SIGNAL[signal]);
};

let answer: (signal: StopSignal) => void = beforeTheRun;
let installed = false;

/**
 * One listener per signal for the whole life of the process, answering through `answer`. Node
 * stops watching a signal when its last listener is removed, and a signal that arrived while the
 * engine loaded (the main thread busy, the signal still queued) was dropped with it: a Ctrl-C
 * about half a second after the start went unheard and the run went on to exit 0.
 */
function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(EXIT_CODE_OF_SIGNAL) as StopSignal[])
    process.on(signal, () => answer(signal));
}

/**
 * Loading the engine takes about half a second, and a Ctrl-C in that time would end the process
 * without a word: until the run's own handler takes over, a signal says nothing was sent yet.
 */
export function installEarlyInterrupt(): void {
  install();
}

/** The run's handler answers every signal from here on, one still queued from the loading included. */
export function handOverInterrupts(handler: (signal: StopSignal) => void): void {
  install();
  answer = handler;
}
