import { Worker } from 'node:worker_threads';
import type { MutantExecutor, MutantJob, MutantRunEnd, MutantSettings } from './mutantJob.js';
import type { MutantRequest } from './mutantWorker.js';

interface Pending {
  readonly resolve: (end: MutantRunEnd) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
}

/**
 * Mutants run by the engine in worker threads, several at a time in each: a thread's engine is
 * warmed by its first runs, so the next ones cost a third of the CPU a fresh process does, and
 * the runs' waits (the checks held over time) are filled by the others.
 */
export function mutantThreads(threads: number): { execute: MutantExecutor; close(): Promise<void> } {
  const workerFile = new URL('./mutantWorker.js', import.meta.url);
  const pool: Thread[] = [];
  let nextIndex = 0;
  let closing = false;

  const start = (): Thread => {
    const thread: Thread = { worker: new Worker(workerFile), pending: new Map() };
    thread.worker.on('message', ({ index, end }: { index: number; end: MutantRunEnd }) => {
      thread.pending.get(index)?.resolve(end);
      thread.pending.delete(index);
    });
    // A thread that dies takes its runs with it: they end with the cause, the others go on in a new thread.
    const lost = (cause: string): void => {
      const at = pool.indexOf(thread);
      if (at >= 0 && !closing) pool.splice(at, 1, start());
      for (const pending of thread.pending.values())
        pending.resolve({
          failedRules: [],
          runErrors: [`the worker thread running it ${cause}`],
          exitCode: 2,
        });
      thread.pending.clear();
    };
    thread.worker.on('error', (error) => lost(`failed: ${error.message}`));
    thread.worker.on('exit', (code) => {
      if (thread.pending.size > 0) lost(`exited (${code})`);
    });
    return thread;
  };
  for (let i = 0; i < Math.max(1, threads); i++) pool.push(start());

  const execute: MutantExecutor = (job: MutantJob, settings: MutantSettings) =>
    new Promise((resolve) => {
      const thread = pool.reduce((least, each) => (each.pending.size < least.pending.size ? each : least));
      const index = nextIndex++;
      thread.pending.set(index, { resolve });
      thread.worker.postMessage({ index, job, settings } satisfies MutantRequest);
    });

  return {
    execute,
    close: async () => {
      closing = true;
      await Promise.all(pool.map((thread) => thread.worker.terminate()));
    },
  };
}
