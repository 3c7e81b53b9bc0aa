import { operationRequest } from '../generate/operationRequest.js';
import type { OverlapPlan } from '../generate/overlap.js';
import type { Session } from '../session/session.js';
import type { ApiRequest, Exchange } from '../transport/exchange.js';

/** An exchange with when it was on the wire, by this process's clock (milliseconds). */
export interface TimedExchange {
  readonly exchange: Exchange;
  /** Undefined when the transport did not say (then it overlaps nothing: no evidence). */
  readonly sentAt: number | undefined;
  readonly answeredAt: number | undefined;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the requests together, as `plan` lets them go (in order without a scheduler), each on a connection of its own (the
 * transport opens one per request in flight), and waits for every answer. Nothing is left in
 * flight when it returns: the first transport error is thrown once all have settled.
 */
export async function sendOverlapping(
  session: Session,
  plan: OverlapPlan,
  requests: readonly ApiRequest[],
): Promise<TimedExchange[]> {
  // A request that must first open a connection can leave a fast target time to answer the one
  // before it: as many reads as there are requests, sent together first, leave a kept-alive
  // connection ready for each.
  const read = operationRequest(session.operation('listBuckets'), session, 'positive');
  const readsTogether = await session.http.admitTogether(requests.length);
  await Promise.all(requests.map(() => session.http.send(read, readsTogether)));
  // Under a rate limit the pacer would space the copies out; they are admitted as one group.
  const together = await session.http.admitTogether(requests.length);
  const release = (index: number): Promise<unknown> =>
    plan.scheduler
      ? plan.scheduler.schedule(Promise.resolve(index), `send request ${index + 1}`)
      : Promise.resolve(index);
  const sends = requests.map((request, index) =>
    release(index).then(async (): Promise<TimedExchange> => {
      const delay = plan.delaysMs[index] ?? 0;
      if (delay > 0) await pause(delay);
      const exchange = await session.http.send(request, together);
      const sentAt = exchange.response.startedAt;
      return {
        exchange,
        sentAt,
        answeredAt: sentAt === undefined ? undefined : sentAt + exchange.response.durationMs,
      };
    }),
  );
  await plan.scheduler?.waitAll();
  const settled = await Promise.allSettled(sends);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<TimedExchange>).value);
}

/** Whether two exchanges were on the wire at the same time: each sent before the other's answer. */
export function overlapped(a: TimedExchange, b: TimedExchange): boolean {
  if (a.sentAt === undefined || a.answeredAt === undefined) return false;
  if (b.sentAt === undefined || b.answeredAt === undefined) return false;
  return a.sentAt < b.answeredAt && b.sentAt < a.answeredAt;
}

/** Why a case whose requests never overlapped is no evidence, and what would make them. */
export const NO_OVERLAP =
  'the requests were never in flight together (the run sends one request at a time: --concurrency 1, a rate limit, or a 429 that lowered it); raise concurrency and rateLimitPerSecond in the profile as far as the target allows';
