import { parentPort } from 'node:worker_threads';
import { runMutantInProcess } from './inProcessMutant.js';
import type { MutantJob, MutantSettings } from './mutantJob.js';

/** A worker thread of the mutation run: runs each mutant it is handed, as many at once as it is handed. */
export interface MutantRequest {
  readonly index: number;
  readonly job: MutantJob;
  readonly settings: MutantSettings;
}

const port = parentPort;
if (!port) throw new Error('mutantWorker.js runs as a worker thread of the mutation run');
port.on('message', (request: MutantRequest) => {
  void runMutantInProcess(request.job, request.settings).then((end) =>
    port.postMessage({ index: request.index, end }),
  );
});
