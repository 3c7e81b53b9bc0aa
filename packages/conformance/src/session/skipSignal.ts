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
