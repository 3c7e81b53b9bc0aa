import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { SkipSignal } from '../session/skipSignal.js';
import type { Exchange } from '../transport/exchange.js';

/** The one release of the run: RESP-2 reads its answer, STATE-1 releases the same IP again. */
export function acceptedRelease(session: Session): Promise<{ exchange: Exchange; ipId: string }> {
  const ipId = session.plan.releaseAccept;
  if (!ipId) throw new SkipSignal('profile lists no resources.releasableReservedIpIds');
  return session.once('release', () =>
    session.http
      .send(
        operationRequest(session.operation('releaseReservedIp'), session, 'probe', {
          pathIds: { reserved_ip_id: ipId },
        }),
      )
      .then((exchange) => ({ exchange, ipId })),
  );
}

/** The one accepted delete of the run, shared by the checks that judge its answer and its aftermath. */
export function acceptedDelete(session: Session): Promise<{ exchange: Exchange; vmId: string }> {
  const vmId = session.plan.deleteAccept;
  if (!vmId) throw new SkipSignal('profile lists no resources.deletableGpuVmIds');
  return session.once('delete', () =>
    session.http
      .send(
        operationRequest(session.operation('deleteGpuVm'), session, 'probe', { pathIds: { vm_id: vmId } }),
      )
      .then((exchange) => ({ exchange, vmId })),
  );
}

/** The one create of the run; `record` is told the VM it made (the document shows no cloud VM delete). */
export function acceptedCreate(session: Session, record: (vmId: string) => void): Promise<Exchange> {
  return session.once('create', () =>
    session.http
      .send(operationRequest(session.operation('createCloudVm'), session, 'probe'))
      .then((exchange) => {
        const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
        if (exchange.response.status < 300 && typeof vmId === 'string') record(vmId);
        return exchange;
      }),
  );
}

export const CLOUD_VM_NOT_CLEANED = 'not cleaned up: the document specifies no cloud VM delete endpoint';
