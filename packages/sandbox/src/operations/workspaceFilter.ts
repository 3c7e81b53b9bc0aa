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
 * The refusal of a resource the request's workspace does not hold: 404, or under the
 * cross-workspace-resource-403 variant 403 when it lives in another workspace of the
 * organization (the document shows no status for that case).
 */
export function notInWorkspace(
  services: SandboxServices,
  livesElsewhere: boolean,
  notFoundDetail: string,
): OperationResult {
  if (livesElsewhere && services.behaviour.variant === 'cross-workspace-resource-403')
    return errorResult(
      403,
      'The resource belongs to another workspace of your organization; use it through its own workspace.',
    );
  return errorResult(404, notFoundDetail);
}
