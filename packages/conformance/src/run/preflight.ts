import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { SkipSignal } from '../session/skipSignal.js';
import {
  type Exchange,
  NoAnswerError,
  ResponseTooLargeError,
  TransportError,
} from '../transport/exchange.js';
import type { TargetHttp } from '../transport/targetHttp.js';
import { RunSetupError } from './runSetupError.js';
import { sentence } from './sentence.js';

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

/**
 * What came back, in a few words for the message: status, content type, a redirect's target, the
 * body's start. Redacted before it is cut: a cut through an echoed token leaves a piece too short
 * for the redactor to know.
 */
function described(exchange: Exchange, redact: (text: string) => string): string {
  const { status, headers } = exchange.response;
  const bodyText = redact(exchange.response.bodyText);
  const type = redact(headers['content-type'] ?? 'no Content-Type');
  const location = headers.location ? `, Location: ${redact(headers.location)}` : '';
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
function judged(
  exchange: Exchange,
  operationId: string,
  proxy: TargetHttp['proxy'],
): 'api' | 'unsure' | { readonly why: string } {
  const { status, isJson, bodyText } = exchange.response;
  // A gateway error that is not JSON, through a proxy, is the proxy's own page far more often
  // than the API's: the message names the proxy and its variable, as unreachable targets do.
  const host = new URL(exchange.url).hostname;
  if (proxy && status >= 502 && status <= 504 && !isJson)
    return {
      why: `most likely the proxy ${proxy.origin} that ${proxy.variable} names, which could not reach the target (every answer of the API is JSON); check that variable, or list ${host} in NO_PROXY if the target needs no proxy`,
    };
  // So is any other refusal that is not JSON: a corporate proxy's block page is no token problem.
  if (proxy && status >= 400 && !isJson && bodyText.length > 0)
    return {
      why: `most likely the proxy ${proxy.origin} that ${proxy.variable} names, refusing the request with a page of its own (every answer of the API is JSON); check that proxy's policy for ${host} and that variable, or list ${host} in NO_PROXY if the target needs no proxy`,
    };
  if (status >= 300 && status < 400)
    return { why: 'a redirect (a login page or another host?): the suite never follows one' };
  if ((status === 401 || status === 403) && !isJson && bodyText.length > 0)
    return {
      why: "a refusal that is not JSON, so most likely from a firewall, WAF or gateway in front of the API rather than the API (every answer of the API is JSON): check what sits in front of baseUrl; if the API itself refused, check the broadest identity's token and the profile's scopes",
    };
  if (status === 401 || status === 403)
    return {
      why: "the broadest identity of the profile was refused: check its token, its environment, the profile's scopes, and that workspaces.primary is a workspace the token may use (the answer may say which)",
    };
  // JSON.parse refuses a leading byte-order mark, and the quoted body hides it: say so.
  if (!isJson && bodyText.startsWith('\uFEFF'))
    return {
      why: 'the body starts with a byte-order mark (U+FEFF), which JSON sent between systems must not carry (RFC 8259 §8.1); clients reject it',
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

/** After this long without an answer to one read, the preflight sends its other reads too. */
const HEDGE_AFTER_MS = 2_000;

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What one read of the preflight got: an answer, no answer at all in time, or another failure. */
type Attempt =
  | { readonly kind: 'answer'; readonly exchange: Exchange }
  | { readonly kind: 'no-answer'; readonly error: NoAnswerError }
  | { readonly kind: 'unreachable'; readonly error: TransportError }
  | { readonly kind: 'failed' };

/**
 * Before any rule: the base URL must answer one documented read with the broadest identity in a
 * way only the API could (not 404 everywhere, not HTML, not a redirect to a login page), or no
 * rule subset may run against it. A target that accepts connections but answers none of these
 * reads within `preflightTimeoutMs` is stopped here too, rather than costing every check its
 * request timeout until the deadline. A read without an answer after two seconds has the others sent
 * beside it, so such a target costs one wait, not one per read, and a target where only one
 * operation hangs still runs. A base URL that cannot be reached at all (connection refused, a host
 * that does not resolve, a TLS failure, an unreachable or refusing proxy) stops the run too; a target
 * that resets connections is left to the run, which reports it incomplete, naming what happened.
 */
export async function preflight(session: Session, baseUrl: string): Promise<void> {
  const answerWithinMs = session.profile.preflightTimeoutMs ?? DEFAULT_PREFLIGHT_TIMEOUT_MS;
  const hedgeMs = Math.min(HEDGE_AFTER_MS, answerWithinMs / 2);
  const reads = CANDIDATES.flatMap((candidate) => {
    if (candidate.operationId === 'getCloudVmSnapshotRestore' && !session.plan.restore) return [];
    try {
      return [{ candidate, token: session.fullToken(candidate.scope) }];
    } catch (error) {
      if (error instanceof SkipSignal) return [];
      throw error;
    }
  });
  const send = async ({ candidate, token }: (typeof reads)[number]): Promise<Attempt> => {
    try {
      const exchange = await session.http.send(
        operationRequest(session.operation(candidate.operationId), session, 'positive', { token }),
        { answerWithinMs },
      );
      // A body past the limit tells nothing of the API here, as before the status stood alone.
      if (exchange.response.bodyTooLarge) return { kind: 'failed' };
      return { kind: 'answer', exchange };
    } catch (error) {
      if (error instanceof NoAnswerError) return { kind: 'no-answer', error };
      if (error instanceof TransportError && error.unreachable) return { kind: 'unreachable', error };
      if (error instanceof TransportError || error instanceof ResponseTooLargeError)
        return { kind: 'failed' };
      throw error;
    }
  };
  // The preflight's own waits are not among the run's timeouts, which stop sending after three.
  const timeoutsBefore = session.http.stats.timeouts;
  const started = new Map<number, Promise<Attempt>>();
  const unanswered: NoAnswerError[] = [];
  const tried: string[] = [];
  let refusals = 0;
  try {
    const startRest = (after: number): void => {
      for (const [later, next] of reads.entries())
        if (later > after && !started.has(later)) {
          const attempt = send(next);
          // Awaited in order below, or not at all once an earlier read decides: never unobserved.
          attempt.catch(() => undefined);
          started.set(later, attempt);
        }
    };
    for (const [index, read] of reads.entries()) {
      const pending = started.get(index) ?? send(read);
      // A read of the API answers well within two seconds: one that has not by then may never, and
      // the others are sent beside it, so a target that answers nothing costs one wait in all.
      if (index < reads.length - 1 && !started.has(index + 1) && !(await settlesWithin(pending, hedgeMs)))
        startRest(index);
      const attempt = await pending;
      if (attempt.kind === 'no-answer') {
        unanswered.push(attempt.error);
        startRest(index);
        continue;
      }
      // Nothing at the base URL could be reached (refused, a host that does not resolve, TLS, the
      // proxy): every check would end the same way, so the run stops here, saying why.
      if (attempt.kind === 'unreachable')
        throw new RunSetupError(
          `preflight: cannot reach ${baseUrl}: ${sentence(attempt.error.reason)} No rule was run.`,
        );
      // A reset or an answer too large to read shows nothing about the URL: the run goes on and
      // reports what the checks get.
      if (attempt.kind === 'failed') return;
      const { exchange } = attempt;
      const verdict = judged(exchange, read.candidate.operationId, session.http.proxy);
      if (verdict === 'api') return;
      tried.push(
        `${exchange.request.method} ${session.redactor.redact(exchange.url)} answered ${described(exchange, (text) => session.redactor.redact(text))}${verdict === 'unsure' ? ' (the restore may be gone)' : `; ${verdict.why}`}`,
      );
      if (verdict !== 'unsure') refusals++;
      // A refused token is the profile's business: another operation would only repeat it.
      if (exchange.response.status === 401 || exchange.response.status === 403) break;
    }
    // Reads started together and not looked at: let none of them end unobserved.
    await Promise.allSettled(started.values());
  } finally {
    session.http.stats.timeouts = timeoutsBefore;
  }
  if (unanswered.length > 0 && tried.length === 0)
    throw noAnswerError(session, baseUrl, unanswered, answerWithinMs);
  // Only a 404 for a named resource: nothing shows the URL is wrong, and nothing that it is right.
  if (tried.length > 0 && refusals === 0) return;
  if (tried.length === 0)
    throw new RunSetupError(
      `preflight: the profile has no identity holding object-storage.read, billing.read or vm.read (with a restore in resources.restoreIds) on workspace ${session.profile.workspaces.primary}, so nothing can show that ${baseUrl} serves the API; add one`,
    );
  throw new RunSetupError(
    `preflight: ${baseUrl} does not answer like the API, so no rule was run. ${tried.map(sentence).join(' ')} Check baseUrl (it must end with the API's /v1) and the tokens.`,
  );
}

/** The base URL answered none of the reads at all: which, how long it was given, and what to do. */
function noAnswerError(
  session: Session,
  baseUrl: string,
  unanswered: readonly NoAnswerError[],
  answerWithinMs: number,
): RunSetupError {
  const waitedMs = Math.max(...unanswered.map((error) => error.waitedMs));
  const reads = unanswered.map((error) => `${error.method} ${session.redactor.redact(error.url)}`).join(', ');
  // The request timeout bounds the preflight's wait too, when it is the shorter.
  const raise =
    waitedMs < answerWithinMs
      ? 'raise requestTimeoutMs in the profile (it bounds the preflight too)'
      : 'raise preflightTimeoutMs in the profile';
  // A plain-HTTP server given a TLS handshake mostly waits for a request line that never comes,
  // rather than refusing it: the handshake then hangs like a target that never answers.
  const plainHttp = baseUrl.startsWith('https:')
    ? ` If the server at that host and port speaks plain HTTP, the TLS handshake hangs like this: try baseUrl with http://.`
    : '';
  return new RunSetupError(
    `preflight: ${baseUrl} gave no answer within ${waitedMs / 1000} s (${reads}: not even a status line), so no rule was run. Check baseUrl (host, port, a proxy or firewall that swallows requests); if the target is only slow to answer its first requests, ${raise}.${plainHttp}`,
  );
}
