import type { OperationEntry } from '@cloud-api/spec';
import { type NamedIdentity, namedIdentities } from '../session/identities.js';
import type { Session } from '../session/session.js';
import { type RequestPurpose, usableOperations } from './operationRequest.js';

/** One request's who and where: an operation, the identity sending it and the workspace it names. */
export interface AccessCase {
  readonly op: OperationEntry;
  readonly identity: NamedIdentity;
  readonly workspace: string;
}

/**
 * Every (operation, identity, workspace) that `keep` admits, operation by operation. Generated
 * whole, never filtered by fc.pre, so a concurrent run plans exactly the cases a sequential one
 * sends.
 */
export function accessCases(
  session: Session,
  purpose: RequestPurpose,
  workspaces: readonly string[],
  keep: (op: OperationEntry, identity: NamedIdentity, workspace: string) => boolean,
): AccessCase[] {
  const identities = namedIdentities(session.profile);
  return usableOperations(session, purpose).flatMap((op) =>
    identities.flatMap((identity) =>
      workspaces
        .filter((workspace) => keep(op, identity, workspace))
        .map((workspace) => ({ op, identity, workspace })),
    ),
  );
}
