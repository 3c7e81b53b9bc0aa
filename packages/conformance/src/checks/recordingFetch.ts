/** One request the client under test tried to send. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly kind: 'preflight' | 'create' | 'other';
  /** Whether it reached the target (blocked or answered locally otherwise). */
  readonly forwarded: boolean;
}

/** What the target itself decided, before any override. */
export interface TargetDecision {
  readonly status: number;
  /** True only for a 2xx JSON object whose `allowed` is exactly `true`. */
  readonly allowed: boolean;
}

/** How the preflight answer is altered before the client sees it (BILL-2). */
export type DecisionOverride =
  | { readonly kind: 'denied' }
  | { readonly kind: 'malformed'; readonly body: string }
  | { readonly kind: 'unavailable-status'; readonly status: number }
  | { readonly kind: 'unavailable-network' };

export interface RecordingFetchOptions {
  readonly origin: string;
  readonly basePath: string;
  /** Forward creates to the target (profile allows mutations); else answer them locally. */
  readonly forwardCreates: boolean;
  readonly decision?: DecisionOverride;
  /** Sends what reaches the target: the session's paced, rate-limit-aware transport. */
  readonly forward: (request: Request) => Promise<Response>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The `fetch` handed to @cloud-api/client: records every request, sends only to the profile's
 * origin, may alter the preflight's answer, and never forwards a create that follows a decision
 * other than `allowed: true` (so a broken client cannot create anything through it).
 */
export function createRecordingFetch(options: RecordingFetchOptions): {
  fetch: (input: Request) => Promise<Response>;
  log: RecordedRequest[];
  /** The target's own preflight answers, in order. */
  decisions: TargetDecision[];
  /** The first request the target gave no answer to; the client only saw a network failure. */
  transportFailure(): unknown;
} {
  const log: RecordedRequest[] = [];
  const decisions: TargetDecision[] = [];
  let transportFailure: unknown;
  let lastDecisionAllowed = false;
  async function recordingFetch(input: Request): Promise<Response> {
    const url = new URL(input.url);
    const body = input.method === 'GET' || input.method === 'HEAD' ? '' : await input.clone().text();
    const headers: Record<string, string> = {};
    input.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const path = url.pathname.slice(options.basePath.length);
    const kind =
      input.method === 'POST' && path === '/billing/resource-eligibility'
        ? 'preflight'
        : input.method === 'POST' && path === '/compute/cloud-vms'
          ? 'create'
          : 'other';
    if (url.origin !== options.origin) {
      log.push({ method: input.method, url, headers, body, kind, forwarded: false });
      throw new TypeError(`recording fetch: refused to send to ${url.origin}, outside the profile's origin`);
    }
    if (kind === 'create' && (!lastDecisionAllowed || !options.forwardCreates)) {
      log.push({ method: input.method, url, headers, body, kind, forwarded: false });
      lastDecisionAllowed = false;
      const record = {
        operation_id: 'op-local-dry-run',
        vm_id: 'vm-local-dry-run',
        status: 'accepted',
        submitted_at: new Date().toISOString(),
      };
      return new Response(JSON.stringify(record), { status: 202, headers: JSON_HEADERS });
    }
    log.push({ method: input.method, url, headers, body, kind, forwarded: true });
    if (kind === 'preflight' && options.decision?.kind === 'unavailable-network') {
      lastDecisionAllowed = false;
      throw new TypeError('fetch failed (simulated network failure of the preflight)');
    }
    let response: Response;
    try {
      response = await options.forward(input);
    } catch (error) {
      transportFailure ??= error;
      throw error;
    }
    if (kind === 'create') lastDecisionAllowed = false;
    if (kind !== 'preflight') return response;
    const text = await response.text();
    let targetAllowed = false;
    try {
      const parsed = JSON.parse(text) as { allowed?: unknown } | null;
      targetAllowed = response.ok && parsed?.allowed === true;
    } catch {
      targetAllowed = false;
    }
    decisions.push({ status: response.status, allowed: targetAllowed });
    const override = options.decision;
    if (!override) {
      lastDecisionAllowed = targetAllowed;
      return new Response(text, { status: response.status, headers: response.headers });
    }
    lastDecisionAllowed = false;
    if (override.kind === 'denied')
      return new Response(JSON.stringify({ allowed: false }), { status: 200, headers: JSON_HEADERS });
    if (override.kind === 'malformed')
      return new Response(override.body, { status: 200, headers: JSON_HEADERS });
    const status = override.kind === 'unavailable-status' ? override.status : 503;
    return new Response(JSON.stringify({ detail: 'billing service unavailable (simulated)' }), {
      status,
      headers: JSON_HEADERS,
    });
  }
  return { fetch: recordingFetch, log, decisions, transportFailure: () => transportFailure };
}
