import type { OperationEntry } from '@cloud-api/spec';
import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { is2xx, RuleViolation } from './ruleViolation.js';
import { acceptedDelete, acceptedRelease } from './sharedRequests.js';

/** A GPU VM or a reserved IP that only requests a correct target refuses name, consumed afterwards. */
export interface ConsumableTarget {
  readonly op: OperationEntry;
  readonly what: string;
  readonly pathIds: Readonly<Record<string, string>>;
}

/** The GPU VM and the reserved IP of the profile a check reserves for this (either may be absent). */
export function consumableTargets(
  session: Session,
  vmId: string | undefined,
  ipId: string | undefined,
): ConsumableTarget[] {
  const targets: ConsumableTarget[] = [];
  if (vmId)
    targets.push({ op: session.operation('deleteGpuVm'), what: `GPU VM ${vmId}`, pathIds: { vm_id: vmId } });
  if (ipId)
    targets.push({
      op: session.operation('releaseReservedIp'),
      what: `reserved IP ${ipId}`,
      pathIds: { reserved_ip_id: ipId },
    });
  return targets;
}

/**
 * Consumes `target` through its own workspace after requests a correct target refuses named it.
 * GPU VMs and reserved IPs have no read: only consuming one shows it was still there, and only a
 * resource made for this run was surely there before (without one, a resource found gone is no
 * verdict: an earlier run may have consumed it). `refused` says what was refused ("the DELETE of
 * it through workspace 1043 was refused (404)"), `cause` how a target acts on a refused request.
 */
export async function expectStillThere(
  session: Session,
  target: ConsumableTarget,
  refused: string,
  cause: string,
): Promise<CaseVerdict> {
  const { primary } = session.profile.workspaces;
  const own = await session.http.send(
    operationRequest(target.op, session, 'probe', { pathIds: target.pathIds }),
  );
  const status = own.response.status;
  if (is2xx(status)) return observed;
  const isDelete = target.op.operationId === 'deleteGpuVm';
  if (!session.freshResources && (status === 404 || status === 409))
    return notApplicable(
      `${target.what} answered ${status} through its own workspace after ${refused}; the profile's resources are not made for each run, so an earlier run may have consumed it: list a fresh one for each run, or let the profile's provision command hand one out`,
    );
  // A fresh VM may be in a state that conflicts with a delete (not shown); and a target that
  // answers 404 to every release (a retrying gateway) shows nothing about the refused one. Either
  // is blamed on the refused requests only when the run's own delete or release of another such
  // resource was accepted.
  if (status === 404 || (status === 409 && isDelete)) {
    const accepted = isDelete
      ? (await acceptedDelete(session)).exchange
      : (await acceptedRelease(session)).exchange;
    if (is2xx(accepted.response.status))
      throw new RuleViolation(
        `${target.what} was ${session.freshResources}, and ${refused}; then its own workspace ${primary} answered ${status}, while the run's ${isDelete ? 'delete' : 'release'} of another such resource was accepted (${accepted.response.status}): a refused request had already ${status === 404 ? 'removed it' : 'started deleting it'} (${cause})`,
        own,
      );
  }
  return notApplicable(
    `${target.what} answered ${status} through its own workspace after ${refused}, which shows neither way whether it was still there`,
  );
}

/**
 * `judge`, run once per case: a case that consumes its resource cannot be judged again (fast-check
 * shrinking toward another case would judge a resource the first run removed).
 */
export function judgedOnce<C>(judge: (c: C) => Promise<CaseVerdict>): (c: C) => Promise<CaseVerdict> {
  const judged = new Map<C, Promise<CaseVerdict>>();
  return (c) => {
    const known = judged.get(c) ?? judge(c);
    judged.set(c, known);
    return known;
  };
}
