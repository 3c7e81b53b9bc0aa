import { emptyResult, errorResult, jsonResult } from '../operationResult.js';
import { NOT_FOUND_DETAIL, type OperationHandler } from './operationContext.js';

/**
 * Releases a reserved IP: 204 with no body. A released IP no longer exists (404), or, as a
 * variant, stays known as released (409); an IP assigned to a VM conflicts (409).
 */
export const releaseReservedIp: OperationHandler = (request, services) => {
  const { store, behaviour } = services;
  const reservedIpId = request.pathParameters.reserved_ip_id ?? '';
  const ip = store.reservedIps.get(reservedIpId);
  const keepsReleased = behaviour.variant === 'released-ip-conflict';
  if (!ip || ip.workspaceId !== request.workspaceId || (ip.state === 'released' && !keepsReleased)) {
    if (behaviour.fault === 'unknown-reserved-ip-answers-204') return emptyResult(204);
    return errorResult(404, NOT_FOUND_DETAIL('Reserved IP', reservedIpId, request.workspaceId));
  }
  if (ip.state === 'released')
    return errorResult(409, `Reserved IP ${reservedIpId} has already been released.`);
  if (ip.assignedVmId !== null) {
    return errorResult(
      409,
      `Reserved IP ${reservedIpId} is assigned to VM ${ip.assignedVmId}; unassign it before releasing.`,
    );
  }
  if (keepsReleased) ip.state = 'released';
  else store.reservedIps.delete(reservedIpId);
  if (behaviour.fault === 'release-answers-200-with-body') {
    return jsonResult(200, { reserved_ip_id: reservedIpId, address: ip.address, status: 'released' });
  }
  return emptyResult(204);
};
