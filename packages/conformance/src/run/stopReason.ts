/** Why a check was told to stop: the run was interrupted, its deadline passed, or the check ran too long. */
export class StopReason extends Error {
  constructor(
    readonly kind: 'interrupted' | 'deadline' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'StopReason';
  }
}

/** The report's words for why `signal` stopped a check (`not finished: …`). */
export function stopMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof StopReason ? reason.message : 'not finished: the run was interrupted';
}
