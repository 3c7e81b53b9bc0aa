import type { FaultId } from '../faultCatalogue.js';
import { errorResult, type OperationResult } from '../operationResult.js';
import type { OperationRequest, SandboxServices } from './operationContext.js';

/**
 * The workspace filter of a store lookup: a resource is found only through its own workspace.
 * `unfilteredFault` names the fault under which this lookup lost its filter (the query by id
 * alone that real servers write when the workspace is "already checked" by the gateway).
 */
export function inRequestWorkspace(
  resourceWorkspace: string,
  request: OperationRequest,
  services: SandboxServices,
  unfilteredFault: FaultId,
): boolean {
  if (services.behaviour.fault === unfilteredFault) return true;
  return resourceWorkspace === request.workspaceId;
}

/**
 * The refusal of a resource the request's workspace does not hold: 404. Under the
 * cross-workspace-resource-403 variant, 403 when it lives in another workspace of the organization
 * that the caller's token may not access (the document shows no status for that case; "may not
 * access the workspace" is one reading of it). A caller that may access the resource's workspace
 * lacks nothing a 403 names, so it gets 404 under the variant too.
 */
export function notInWorkspace(
  services: SandboxServices,
  request: OperationRequest,
  residentWorkspace: string | undefined,
  notFoundDetail: string,
): OperationResult {
  if (residentWorkspace !== undefined && services.behaviour.fault === 'cross-workspace-resource-exists-403')
    return errorResult(403, 'The resource belongs to another workspace of your organization.');
  if (
    services.behaviour.variant === 'cross-workspace-resource-403' &&
    residentWorkspace !== undefined &&
    residentWorkspace !== request.workspaceId &&
    !request.caller.policyAllows(residentWorkspace)
  )
    return errorResult(
      403,
      'The resource belongs to another workspace of your organization, which this token may not access.',
    );
  return errorResult(404, notFoundDetail);
}

/**
 * The gpu-vm-owned-elsewhere-409 fault: the ownership check raises a conflict, whose answer tells
 * that the resource exists, and where. Undefined when the fault is off or the resource is here.
 */
export function ownedElsewhereConflict(
  what: string,
  id: string,
  residentWorkspace: string | undefined,
  request: OperationRequest,
  services: SandboxServices,
): OperationResult | undefined {
  if (services.behaviour.fault !== 'gpu-vm-owned-elsewhere-409') return undefined;
  if (residentWorkspace === undefined || residentWorkspace === request.workspaceId) return undefined;
  return errorResult(409, `${what} ${id} belongs to workspace ${residentWorkspace}.`);
}
