/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts. The abort listener is
 * removed when the wait ends either way: a loop of waits on one long-lived signal (retries,
 * polling) must not pile up listeners (Node warns at 11: MaxListenersExceededWarning).
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
