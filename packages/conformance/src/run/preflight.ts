import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { SkipSignal } from '../session/skipSignal.js';
import {
  type Exchange,
  NoAnswerError,
  ResponseTooLargeError,
  TransportError,
} from '../transport/exchange.js';
import { RunSetupError } from './runSetupError.js';

/** How long the preflight waits for a first answer unless the profile says (`preflightTimeoutMs`). */
export const DEFAULT_PREFLIGHT_TIMEOUT_MS = 10_000;

/**
 * Read-only operations that answer a documented success to the broadest identity, in the order
 * they are tried: the bucket list (a collection: no resource of the profile needed), the billing
 * decision, a restore the profile lists.
 */
const CANDIDATES = [
  { operationId: 'listBuckets', scope: 'object-storage.read' },
  { operationId: 'checkResourceEligibility', scope: 'billing.read' },
  { operationId: 'getCloudVmSnapshotRestore', scope: 'vm.read' },
] as const;

/** What came back, in a few words for the message: status, content type, a redirect's target, the body's start. */
function described(exchange: Exchange): string {
  const { status, headers, bodyText } = exchange.response;
  const type = headers['content-type'] ?? 'no Content-Type';
  const location = headers.location ? `, Location: ${headers.location}` : '';
  const start = bodyText.replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${status} (${type}${location})${start ? `: ${JSON.stringify(start)}${bodyText.length > 80 ? '…' : ''}` : ', empty body'}`;
}

/** Whether an operation names a resource in its path: a 404 for it may only mean the resource is gone. */
function namesResource(operationId: string): boolean {
  return operationId === 'getCloudVmSnapshotRestore';
}

/**
 * What an answer shows: `api` (a success, or an answer shaped like the API's: JSON that a broken
 * or strict server could send), `unsure` (a 404 for a named resource), or why the base URL does not
 * serve the API at all.
 */
function judged(exchange: Exchange, operationId: string): 'api' | 'unsure' | { readonly why: string } {
  const { status, isJson, bodyText } = exchange.response;
  if (status >= 300 && status < 400)
    return { why: 'a redirect (a login page or another host?): the suite never follows one' };
  if (status === 401 || status === 403)
    return {
      why: "the broadest identity of the profile was refused: check its token, its environment and the profile's scopes",
    };
  if (!isJson && bodyText.length > 0)
    return {
      why: 'the body is not JSON (an HTML page, a proxy or a default server?): every answer of the API is JSON',
    };
  if (status === 404)
    return namesResource(operationId)
      ? 'unsure'
      : {
          why: 'an operation on a collection is not found: the base URL does not serve the API (a mistyped path prefix?)',
        };
  return 'api';
}

/**
 * Before any rule: the base URL must answer one documented read with the broadest identity in a
 * way only the API could (not 404 everywhere, not HTML, not a redirect to a login page), or no
 * rule subset may run against it. A target that accepts connections but sends nothing back within
 * `preflightTimeoutMs` is stopped here too, rather than costing every check its request timeout
 * until the deadline. A target that refuses or resets connections is left to the run, which
 * reports it incomplete, naming what happened.
 */
export async function preflight(session: Session, baseUrl: string): Promise<void> {
  const answerWithinMs = session.profile.preflightTimeoutMs ?? DEFAULT_PREFLIGHT_TIMEOUT_MS;
  const tried: string[] = [];
  let refusals = 0;
  for (const candidate of CANDIDATES) {
    let token: string;
    try {
      token = session.fullToken(candidate.scope);
    } catch (error) {
      if (error instanceof SkipSignal) continue;
      throw error;
    }
    if (candidate.operationId === 'getCloudVmSnapshotRestore' && !session.plan.restore) continue;
    let exchange: Exchange;
    const timeoutsBefore = session.http.stats.timeouts;
    try {
      exchange = await session.http.send(
        operationRequest(session.operation(candidate.operationId), session, 'positive', { token }),
        { answerWithinMs },
      );
    } catch (error) {
      if (error instanceof NoAnswerError)
        throw new RunSetupError(
          `preflight: ${baseUrl} gave no answer within ${error.waitedMs / 1000} s (${error.method} ${session.redactor.redact(error.url)}: not even a status line), so no rule was run. Check baseUrl (host, port, a proxy or firewall that swallows requests); if the target is only slow to answer its first request, raise preflightTimeoutMs in the profile.`,
        );
      // No usable answer (none at all, or one too large to read) shows nothing about the URL: the
      // run goes on and reports what the checks get. The preflight's own wait is not one of the
      // run's timeouts, which stop sending after three.
      if (error instanceof TransportError || error instanceof ResponseTooLargeError) {
        session.http.stats.timeouts = timeoutsBefore;
        return;
      }
      throw error;
    }
    const verdict = judged(exchange, candidate.operationId);
    if (verdict === 'api') return;
    tried.push(
      `${exchange.request.method} ${session.redactor.redact(exchange.url)} answered ${described(exchange)}${verdict === 'unsure' ? ' (the restore may be gone)' : `; ${verdict.why}`}`,
    );
    if (verdict !== 'unsure') refusals++;
    // A refused token is the profile's business: another operation would only repeat it.
    if (exchange.response.status === 401 || exchange.response.status === 403) break;
  }
  // Only a 404 for a named resource: nothing shows the URL is wrong, and nothing that it is right.
  if (tried.length > 0 && refusals === 0) return;
  if (tried.length === 0)
    throw new RunSetupError(
      `preflight: the profile has no identity holding object-storage.read, billing.read or vm.read (with a restore in resources.restoreIds) on workspace ${session.profile.workspaces.primary}, so nothing can show that ${baseUrl} serves the API; add one`,
    );
  throw new RunSetupError(
    `preflight: ${baseUrl} does not answer like the API, so no rule was run. ${tried.join(' ')} Check baseUrl (it must end with the API's /v1) and the tokens.`,
  );
}
