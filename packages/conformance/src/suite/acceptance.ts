import { operationRequest } from '../arbitraries/operationRequest.js';
import type { Exchange } from '../http/exchange.js';
import { SkipSignal, type Suite } from './suiteContext.js';

/**
 * The delete, the create and the release that several checks share: each consumes or creates something,
 * so it is sent once per run and every check reads the same answer.
 */
let deleteOnce: Promise<{ exchange: Exchange; vmId: string }> | undefined;
let createOnce: Promise<Exchange> | undefined;
let releaseOnce: Promise<{ exchange: Exchange; ipId: string }> | undefined;

/** The one release of the run: RESP-2 reads its answer, STATE-1 releases the same IP again. */
export function acceptedRelease(suite: Suite): Promise<{ exchange: Exchange; ipId: string }> {
  const ipId = suite.plan.releaseAccept;
  if (!ipId) throw new SkipSignal('profile lists no resources.releasableReservedIpIds');
  releaseOnce ??= suite.http
    .send(
      operationRequest(suite.operation('releaseReservedIp'), suite, 'probe', {
        pathIds: { reserved_ip_id: ipId },
      }),
    )
    .then((exchange) => ({ exchange, ipId }));
  return releaseOnce;
}

export function acceptedDelete(suite: Suite): Promise<{ exchange: Exchange; vmId: string }> {
  const vmId = suite.plan.deleteAccept;
  if (!vmId) throw new SkipSignal('profile lists no resources.deletableGpuVmIds');
  deleteOnce ??= suite.http
    .send(operationRequest(suite.operation('deleteGpuVm'), suite, 'probe', { pathIds: { vm_id: vmId } }))
    .then((exchange) => ({ exchange, vmId }));
  return deleteOnce;
}

export function acceptedCreate(suite: Suite, record: (vmId: string) => void): Promise<Exchange> {
  createOnce ??= suite.http
    .send(operationRequest(suite.operation('createCloudVm'), suite, 'probe'))
    .then((exchange) => {
      const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
      if (exchange.response.status < 300 && typeof vmId === 'string') record(vmId);
      return exchange;
    });
  return createOnce;
}

export const CLOUD_VM_NOT_CLEANED = 'not cleaned up: the document specifies no cloud VM delete endpoint';
