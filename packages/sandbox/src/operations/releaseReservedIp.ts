import { emptyResult, errorResult, jsonResult } from '../operationResult.js';
import { NOT_FOUND_DETAIL, type OperationHandler } from './operationContext.js';
import { inRequestWorkspace, notInWorkspace } from './workspaceFilter.js';

/**
 * Releases a reserved IP: 204 with no body. A released IP no longer exists (404), or, as a
 * variant, stays known as released (409); an IP assigned to a VM conflicts (409).
 */
export const releaseReservedIp: OperationHandler = (request, services) => {
  const { store, behaviour } = services;
  const reservedIpId = request.pathParameters.reserved_ip_id ?? '';
  const ip = store.reservedIps.get(reservedIpId);
  const keepsReleased = behaviour.variant === 'released-ip-conflict';
  // The soft-delete fault keeps released IPs too, and its lookup forgets to filter them out.
  const softDeleted = behaviour.fault === 'released-ip-soft-delete-not-filtered';
  const findsReleased = keepsReleased || softDeleted;
  // The fault's delete runs first and its workspace comparison after, so a refusal comes too late.
  if (
    behaviour.fault === 'release-removed-before-workspace-check' &&
    ip?.state === 'reserved' &&
    ip.assignedVmId === null &&
    ip.workspaceId !== request.workspaceId
  ) {
    store.reservedIps.delete(reservedIpId);
    return notInWorkspace(
      services,
      request,
      ip.workspaceId,
      NOT_FOUND_DETAIL('Reserved IP', reservedIpId, request.workspaceId),
    );
  }
  if (
    !ip ||
    !inRequestWorkspace(ip.workspaceId, request, services, 'reserved-ip-release-ignores-workspace') ||
    (ip.state === 'released' && !findsReleased)
  ) {
    if (behaviour.fault === 'unknown-reserved-ip-answers-204') return emptyResult(204);
    const elsewhere = ip !== undefined && ip.workspaceId !== request.workspaceId && ip.state !== 'released';
    return notInWorkspace(
      services,
      request,
      elsewhere ? ip.workspaceId : undefined,
      NOT_FOUND_DETAIL('Reserved IP', reservedIpId, request.workspaceId),
    );
  }
  if (ip.state === 'released' && !softDeleted)
    return errorResult(409, `Reserved IP ${reservedIpId} has already been released.`);
  if (ip.assignedVmId !== null) {
    return errorResult(
      409,
      `Reserved IP ${reservedIpId} is assigned to VM ${ip.assignedVmId}; unassign it before releasing.`,
    );
  }
  if (findsReleased) ip.state = 'released';
  else store.reservedIps.delete(reservedIpId);
  // The released IP's answer was lost to the gateway's per-try timeout; its retry found nothing.
  if (behaviour.fault === 'release-gateway-retry-404')
    return errorResult(404, NOT_FOUND_DETAIL('Reserved IP', reservedIpId, request.workspaceId));
  if (behaviour.fault === 'release-answers-200-with-body') {
    return jsonResult(200, { reserved_ip_id: reservedIpId, address: ip.address, status: 'released' });
  }
  // res.end() without a status: the framework's default 200.
  if (behaviour.fault === 'release-forgets-status') return emptyResult(200);
  return emptyResult(204);
};
