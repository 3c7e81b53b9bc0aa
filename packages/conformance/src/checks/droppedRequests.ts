import { operationRequest, usableOperations } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { type ApiRequest, type Exchange, TransportError } from '../transport/exchange.js';
import { RuleViolation } from './ruleViolation.js';

/**
 * Sends `request`; when the target drops the connection without an answer, sends it again on a
 * fresh connection, and when that is dropped too while a bucket list on a fresh connection right
 * after is answered, fails: the target crashes on this input (a handler that panics and takes the
 * connection with it), where the document answers every request and malformed input with a 4xx.
 * A drop that does not repeat, or a target that then answers nothing, stays a transport failure
 * (the run is incomplete, not failed).
 */
export async function sendJudgingDrops(
  session: Session,
  request: ApiRequest,
  what: string,
): Promise<Exchange> {
  try {
    return await session.http.send(request);
  } catch (first) {
    if (!(first instanceof TransportError) || !first.dropped) throw first;
    const control = usableOperations(session, 'positive').find((op) => op.operationId === 'listBuckets');
    if (!control) throw first;
    try {
      return await session.http.send(request, { freshConnection: true });
    } catch (again) {
      if (!(again instanceof TransportError) || !again.dropped) throw first;
    }
    const alive = await session.http.send(operationRequest(control, session, 'positive'), {
      freshConnection: true,
    });
    throw new RuleViolation(
      `${request.method} ${request.path} with ${what}: the target closed the connection without an answer, twice, each time on a connection of its own, while a bucket list sent right after was answered (${alive.response.status}): it crashes on this input (or a firewall in front of it drops such requests), where the document answers every request, malformed input with a 4xx`,
    );
  }
}
