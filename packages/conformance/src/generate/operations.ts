import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import type { Session } from '../session/session.js';
import { SkipSignal } from '../session/skipSignal.js';
import { type RequestPurpose, usableOperations } from './operationRequest.js';

/** One of the operations usable on this profile, shown by its operationId when a case shrinks. */
export function anyOperation(session: Session, purpose: RequestPurpose): fc.Arbitrary<OperationEntry> {
  const ops = usableOperations(session, purpose);
  if (ops.length === 0) throw new SkipSignal('profile offers no operation usable for this check');
  return fc.constantFrom(...ops);
}

/** Every pair of two finite lists: used as examples so finite domains are covered whole. */
export function everyPair<A, B>(as: readonly A[], bs: readonly B[]): [A, B][] {
  return as.flatMap((a) => bs.map((b) => [a, b] as [A, B]));
}
