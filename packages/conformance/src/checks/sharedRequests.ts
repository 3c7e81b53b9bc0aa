import { setTimeout as wait } from 'node:timers/promises';
import { operationRequest } from '../generate/operationRequest.js';
import { plainOverlap } from '../generate/overlap.js';
import type { Session } from '../session/session.js';
import { SkipSignal } from '../session/skipSignal.js';
import type { Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable } from './caseVerdict.js';
import { sendOverlapping } from './overlappingRequests.js';
import { RuleViolation } from './ruleViolation.js';

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

/** The run's delete of one GPU VM: the answer the checks judge, and the copy sent with it. */
export interface AcceptedDelete {
  /** The delete the target accepted (202, else another success), or the first when it accepted neither. */
  readonly exchange: Exchange;
  readonly vmId: string;
  /** A second delete of the same VM with a key of its own, sent at the same moment (STATE-1 judges it). */
  readonly together: Exchange;
}

/**
 * The one accepted delete of the run, shared by the checks that judge its answer and its
 * aftermath. It goes out with a second delete of the same VM, with its own key, at the same
 * moment: a target that checks the VM's state and then sets it in two steps accepts both.
 */
export function acceptedDelete(session: Session): Promise<AcceptedDelete> {
  const vmId = session.plan.deleteAccept;
  if (!vmId) throw new SkipSignal('profile lists no resources.deletableGpuVmIds');
  return session.once('delete', async () => {
    const request = () =>
      operationRequest(session.operation('deleteGpuVm'), session, 'probe', { pathIds: { vm_id: vmId } });
    const [first, second] = (await sendOverlapping(session, plainOverlap(2), [request(), request()])).map(
      (timed) => timed.exchange,
    ) as [Exchange, Exchange];
    // The one the target took on: 202, else any other success (which the checks then judge), so
    // which copy won the race never decides which answer is judged.
    const rank = (exchange: Exchange): number =>
      exchange.response.status === 202
        ? 2
        : exchange.response.status >= 200 && exchange.response.status < 300
          ? 1
          : 0;
    const secondWon = rank(second) > rank(first);
    return secondWon
      ? { exchange: second, vmId, together: first }
      : { exchange: first, vmId, together: second };
  });
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
export const BACKUP_POLICY_NOT_CLEANED = 'not cleaned up: the document specifies no way to disable backups';

/**
 * A profile resource a consuming request found already consumed (404: gone; 409: in a state that
 * conflicts, such as being deleted): an earlier run, or another job, used it. The answer is a
 * documented one, so it shows nothing about the rule: the case is no evidence, and says how to
 * give the next run a fresh resource. A resource made for this run alone (provisioned, or the
 * sandbox's) that answers 404 to the first request that may consume it was never consumed: the
 * target answered an existing resource as not found, and that fails.
 */
export function consumedFixture(
  session: Session,
  exchange: Exchange,
  what: string,
  profileField: string,
): CaseVerdict | undefined {
  const { status } = exchange.response;
  if (status !== 404 && status !== 409) return undefined;
  if (status === 404 && session.freshResources)
    throw new RuleViolation(
      `${exchange.request.method} ${exchange.request.path} answered 404 for ${what} that was ${session.freshResources}, and that nothing in the run had consumed before: an existing resource was answered as not found (as through a gateway that retries a request whose first attempt succeeded)`,
      exchange,
    );
  return notApplicable(
    `${exchange.request.method} ${exchange.request.path} answered ${status}: ${what} listed in ${profileField} is already ${status === 404 ? 'gone' : 'consumed'} (an earlier run used it); list a fresh one for each run, or let the profile's provision command hand one out`,
  );
}

/** Attempts of a request whose refusal would fail a rule, and the pause before the second. */
export const REFUSAL_ATTEMPTS = 3;
const REFUSAL_PAUSE_MS = 400;

/**
 * Sends a request again, each time as `send` builds it (a create with a key of its own), until an
 * answer settles it or REFUSAL_ATTEMPTS answers did not: one refusal or server error can be a
 * passing fault of a real environment, every attempt is not. The pauses grow (0.4 s, 0.8 s).
 * Returns every exchange; the last is the settling one, or the last attempt's.
 */
export async function sentUntilSettled(
  send: () => Promise<Exchange>,
  settles: (status: number) => boolean,
  signal: AbortSignal,
): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (let attempt = 1; ; attempt++) {
    const exchange = await send();
    exchanges.push(exchange);
    if (settles(exchange.response.status) || attempt === REFUSAL_ATTEMPTS) return exchanges;
    await wait(REFUSAL_PAUSE_MS * attempt, undefined, { signal }).catch(() => undefined);
  }
}
