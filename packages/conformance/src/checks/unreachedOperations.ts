import type { OperationEntry } from '@cloud-api/spec';
import { MUTATING_OPERATIONS, pathIdsFor, type RequestPurpose } from '../generate/operationRequest.js';
import type { CheckContext } from './check.js';

/** The profile entry a request of each operation names in its path, in the words a gap uses. */
const PATH_RESOURCE: Readonly<Record<string, Partial<Record<RequestPurpose, string>>>> = {
  enableGpuVmBackups: { probe: 'resources.gpuVmIds', positive: 'resources.gpuVmIds' },
  deleteGpuVm: { probe: 'a third resources.deletableGpuVmIds entry (refused requests name the third)' },
  getCloudVmSnapshotRestore: { probe: 'resources.restoreIds', positive: 'resources.restoreIds' },
  updateNatPortForwardingRule: { probe: 'resources.natRules', positive: 'resources.natRules' },
  releaseReservedIp: {
    probe: 'a second resources.releasableReservedIpIds entry (refused requests name the second)',
  },
};

/** Why the check's cases leave an operation out, and what would bring it in. */
export interface LeftOut {
  readonly why: string;
  readonly remedy: string;
}

/**
 * Names on the check every operation its cases leave out, one gap per reason: an operation with
 * no resource to name, or one `leftOut` explains (no identity fits). A read-only profile's
 * mutating operations are not gaps: the profile says so itself, and the report's header shows it.
 */
export function reportUnreachedOperations(
  t: CheckContext,
  purpose: RequestPurpose,
  reached: ReadonlySet<string>,
  leftOut: (op: OperationEntry) => LeftOut,
): void {
  const session = t.session;
  const groups = new Map<string, { operations: string[]; why: string; remedy: string }>();
  for (const op of session.operations) {
    if (reached.has(op.operationId)) continue;
    if (session.profile.mutations !== true && MUTATING_OPERATIONS.has(op.operationId)) continue;
    if (purpose === 'positive' && op.operationId === 'createCloudVm') continue;
    const resource = PATH_RESOURCE[op.operationId]?.[purpose];
    const reason: LeftOut =
      pathIdsFor(op, session, purpose) === undefined
        ? {
            why: `the profile names no resource for it (${resource ?? 'a path identifier'})`,
            remedy: `add ${resource ?? 'the resource'} to the profile, or a provision command that hands one out`,
          }
        : leftOut(op);
    const key = `${reason.why}\n${reason.remedy}`;
    const group = groups.get(key) ?? { operations: [], ...reason };
    group.operations.push(op.operationId);
    groups.set(key, group);
  }
  for (const group of groups.values())
    t.notChecked(`${group.operations.join(', ')}: ${group.why}`, group.remedy);
}
