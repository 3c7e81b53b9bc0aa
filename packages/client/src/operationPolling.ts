import { ClientConfigError, OperationDeadlineError } from './errors.js';

export interface WaitForOperationOptions {
  /**
   * Polling path template containing `{operation_id}`, e.g. `/operations/{operation_id}`.
   * Required: the API document does not show the path of the operation status endpoint.
   */
  readonly path: string;
  /** Give up after this many milliseconds with `OperationDeadlineError`. */
  readonly deadlineMs: number;
  /** Delay before the second poll; doubles after each poll. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of one delay. Default 10 000 ms. */
  readonly maxDelayMs?: number;
  /**
   * Says when the polled record is final. The document does not show the states of an operation
   * (NS-OPERATION-STATES); the default treats `succeeded`, `failed` and `cancelled` (the run
   * states the document gives restores and backups) as final. Pass your own when you know better.
   */
  readonly isDone?: (record: unknown) => boolean;
  readonly workspaceId?: string;
  readonly signal?: AbortSignal;
}

export const defaultIsDone = (record: unknown): boolean =>
  typeof record === 'object' &&
  record !== null &&
  ['succeeded', 'failed', 'cancelled'].includes(String((record as { status?: unknown }).status));

export function checkPollingPath(path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/') || !path.includes('{operation_id}')) {
    throw new ClientConfigError(
      'waitForOperation needs `path`, a path template under the base URL containing {operation_id} ' +
        "(e.g. '/operations/{operation_id}'): the API document does not show the operation status path.",
    );
  }
  return path;
}

/** Polls `poll()` with exponential backoff and jitter until `isDone` or the deadline. */
export async function pollUntilDone(
  operationId: string,
  options: WaitForOperationOptions,
  poll: () => Promise<unknown>,
): Promise<unknown> {
  const { deadlineMs } = options;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) {
    throw new ClientConfigError('waitForOperation needs `deadlineMs`, a positive number of milliseconds.');
  }
  const isDone = options.isDone ?? defaultIsDone;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  let delayMs = options.initialDelayMs ?? 500;
  const deadline = Date.now() + deadlineMs;
  for (let polls = 1; ; polls++) {
    const record = await poll();
    if (isDone(record)) return record;
    const wait = Math.round(delayMs / 2 + (Math.random() * delayMs) / 2);
    if (Date.now() + wait >= deadline) {
      throw new OperationDeadlineError({ operationId, deadlineMs, polls, lastRecord: record });
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      options.signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(options.signal?.reason);
        },
        { once: true },
      );
    });
    delayMs = Math.min(maxDelayMs, delayMs * 2);
  }
}
