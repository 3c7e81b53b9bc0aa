import type { Session } from '../session/session.js';
import type { ApiRequest, Exchange } from '../transport/exchange.js';

/**
 * How often a retry after a lost answer is sent. A client whose answer was lost with its
 * connection retries on a new one, and may retry more than once; a balancer that pins each
 * connection to an instance sends two new connections in a row to two instances (round robin),
 * so an answer remembered by one instance alone is met.
 */
export const LOST_ANSWER_RETRIES = 2;

/** The request sent again as a client retries after a lost answer: each copy on a new connection. */
export async function retriesAfterLostAnswer(session: Session, request: ApiRequest): Promise<Exchange[]> {
  const retries: Exchange[] = [];
  for (let i = 0; i < LOST_ANSWER_RETRIES; i++)
    retries.push(await session.http.send(request, { freshConnection: true }));
  return retries;
}
