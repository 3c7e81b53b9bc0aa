/**
 * Thrown where the profile lacks what a check needs (an identity, a resource): the check ends
 * skipped with the message as its reason, never passed.
 */
export class SkipSignal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkipSignal';
  }
}

/** Thrown by `t.inconclusive`: the check ends inconclusive with this reason and remedy. */
export class InconclusiveSignal extends Error {
  constructor(
    reason: string,
    readonly remedy: string | undefined,
  ) {
    super(reason);
    this.name = 'InconclusiveSignal';
  }
}
