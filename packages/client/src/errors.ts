import type { Redactor } from './tokenRedaction.js';

/**
 * Base of every error the client throws. None of them ever holds the token: messages and fields
 * are built from redacted text, and a thrown value from below is kept only as a redacted
 * one-line description (`causeDescription`), never as the original object.
 */
export class CloudClientError extends Error {
  override name = 'CloudClientError';

  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message };
  }
}

/** The token has neither known prefix, or is bound to the other environment than the base URL. */
export class TokenEnvironmentError extends CloudClientError {
  override name = 'TokenEnvironmentError';
}

/** A base URL that is not an http(s) URL ending in `/v1`, or that no environment names. */
export class BaseUrlError extends CloudClientError {
  override name = 'BaseUrlError';
}

/** A client option (retry, timeout, workspace, …) that cannot work. */
export class ClientConfigError extends CloudClientError {
  override name = 'ClientConfigError';
}

/** A `workspace_id` that is not a canonical positive decimal integer; refused before sending. */
export class WorkspaceIdError extends CloudClientError {
  override name = 'WorkspaceIdError';
  readonly workspaceId: string;

  constructor(message: string, workspaceId: string) {
    super(message);
    this.workspaceId = workspaceId;
  }
}

/** A request the client refuses to send as given (e.g. an empty idempotency key). */
export class InvalidRequestError extends CloudClientError {
  override name = 'InvalidRequestError';
}

export type BillingBlockReason = 'denied' | 'malformed' | 'unavailable' | 'refused';

/**
 * A billable create was blocked for billing. `reason`:
 * - `denied`, `malformed`, `unavailable`: the client's preflight did not answer `allowed: true`
 *   (a denial; not JSON, `allowed` missing or not a boolean; a network failure, timeout or non-2xx
 *   answer), so the create was **not sent**;
 * - `refused`: the preflight allowed it, the create was sent, and the gateway answered it with a
 *   non-2xx status and no acceptance record. The document says the gateway refuses a create whose
 *   billing decision is denied, malformed or unavailable, but does not show the status it uses
 *   (NS-BILLING-REFUSAL-STATUS), so the client reports as this refusal every 4xx answer to a
 *   billable create other than those the document gives another meaning (400 invalid request,
 *   401 token) and 404/429; `status` and `detail` say what the gateway answered (a 403 may also
 *   be a missing `vm.write` scope: read `detail`).
 */
export class BillingBlockedError extends CloudClientError {
  override name = 'BillingBlockedError';
  readonly reason: BillingBlockReason;
  readonly operationId: string;
  readonly workspaceId: string;
  /** The `sku_code` the preflight asked about. */
  readonly skuCode: string | undefined;
  /** Status of the preflight answer (or, for `refused`, of the create's answer), when there was one. */
  readonly status: number | undefined;
  /** The `detail` of that answer's JSON error body, token removed. */
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  /** For `refused`: the key the create was sent with; replay with it to avoid a duplicate. */
  readonly idempotencyKey: string | undefined;
  readonly causeDescription: string | undefined;

  constructor(fields: {
    reason: BillingBlockReason;
    operationId: string;
    workspaceId: string;
    explanation: string;
    skuCode?: string | undefined;
    status?: number | undefined;
    detail?: string | undefined;
    requestId?: string | undefined;
    idempotencyKey?: string | undefined;
    causeDescription?: string | undefined;
  }) {
    const sku = fields.skuCode === undefined ? '' : ` for sku_code ${JSON.stringify(fields.skuCode)}`;
    const detail = fields.detail === undefined ? '' : `: ${fields.detail}`;
    const cause = fields.causeDescription === undefined ? '' : ` (${fields.causeDescription})`;
    super(
      fields.reason === 'refused'
        ? `${fields.operationId} was refused by the gateway for workspace ${fields.workspaceId}${sku} after an allowed preflight ` +
            `(${fields.explanation}${detail}); nothing was accepted.`
        : `${fields.operationId} was not sent: the billing eligibility preflight${sku} in workspace ${fields.workspaceId} ` +
            `was ${fields.reason} (${fields.explanation}${detail})${cause}. Billable creates are sent only after a decision with \`allowed: true\`.`,
    );
    this.reason = fields.reason;
    this.operationId = fields.operationId;
    this.workspaceId = fields.workspaceId;
    this.skuCode = fields.skuCode;
    this.status = fields.status;
    this.detail = fields.detail;
    this.requestId = fields.requestId;
    this.idempotencyKey = fields.idempotencyKey;
    this.causeDescription = fields.causeDescription;
  }
}

/** The API answered with a non-2xx status (or a 2xx whose body is not the JSON it should be). */
export class ApiError extends CloudClientError {
  override name = 'ApiError';
  readonly status: number;
  /** The error body's `detail` when it is a JSON object with a string `detail`. */
  readonly detail: string | undefined;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The parsed JSON error body, or the start of a non-JSON body, token removed. */
  readonly body: unknown;
  /** The answer's headers (lower-case names), token removed. */
  readonly headers: Readonly<Record<string, string>>;
  /** The server's request id (`X-Request-Id`, `Request-Id` or `X-Correlation-Id`), if it sent one. */
  readonly requestId: string | undefined;
  /** The `X-Idempotency-Key` a failed VM create or delete used: retry with it to avoid a duplicate. */
  readonly idempotencyKey: string | undefined;

  constructor(fields: {
    status: number;
    detail: string | undefined;
    operationId: string;
    method: string;
    path: string;
    body: unknown;
    summary: string;
    headers?: Readonly<Record<string, string>> | undefined;
    requestId?: string | undefined;
    idempotencyKey?: string | undefined;
  }) {
    const requestId = fields.requestId === undefined ? '' : ` [request id ${fields.requestId}]`;
    super(
      `${fields.operationId} (${fields.method} ${fields.path}) failed with HTTP ${fields.status}: ${fields.summary}${requestId}`,
    );
    this.status = fields.status;
    this.detail = fields.detail;
    this.operationId = fields.operationId;
    this.method = fields.method;
    this.path = fields.path;
    this.body = fields.body;
    this.headers = fields.headers ?? {};
    this.requestId = fields.requestId;
    this.idempotencyKey = fields.idempotencyKey;
  }
}

/**
 * The client's own per-attempt timeout (`timeoutMs`), after every allowed retry: no answer, or a
 * body that did not arrive in time. Named `RequestTimeoutError`, not `TimeoutError`, so it is never
 * mistaken for the DOMException `TimeoutError` of a caller's `AbortSignal.timeout()`, which the
 * client passes through untouched.
 */
export class RequestTimeoutError extends CloudClientError {
  override name = 'RequestTimeoutError';
  readonly timeoutMs: number;
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  /** What had not arrived: the answer's status and headers, or its body. */
  readonly waitingFor: 'answer' | 'body';
  /** The `X-Idempotency-Key` the request carried (VM create, delete, power operations). */
  readonly idempotencyKey: string | undefined;

  constructor(fields: {
    timeoutMs: number;
    method: string;
    url: string;
    attempts: number;
    waitingFor: 'answer' | 'body';
    idempotencyKey?: string | undefined;
  }) {
    const what = fields.waitingFor === 'answer' ? 'got no answer' : 'did not receive the whole body';
    super(
      `${fields.method} ${fields.url} ${what} within ${fields.timeoutMs} ms ` +
        `(${fields.attempts} attempt${fields.attempts === 1 ? '' : 's'}); raise \`timeoutMs\` if the API is slow.`,
    );
    this.timeoutMs = fields.timeoutMs;
    this.method = fields.method;
    this.url = fields.url;
    this.attempts = fields.attempts;
    this.waitingFor = fields.waitingFor;
    this.idempotencyKey = fields.idempotencyKey;
  }
}

/** The request failed below HTTP (connection refused, reset, DNS…), after every allowed retry. */
export class NetworkError extends CloudClientError {
  override name = 'NetworkError';
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  readonly causeDescription: string;
  /** The `X-Idempotency-Key` the request carried: it may have been accepted; replay with this key. */
  readonly idempotencyKey: string | undefined;

  constructor(fields: {
    method: string;
    url: string;
    attempts: number;
    causeDescription: string;
    idempotencyKey?: string | undefined;
  }) {
    super(
      `${fields.method} ${fields.url} failed without an HTTP answer after ${fields.attempts} attempt${
        fields.attempts === 1 ? '' : 's'
      }: ${fields.causeDescription}`,
    );
    this.method = fields.method;
    this.url = fields.url;
    this.attempts = fields.attempts;
    this.causeDescription = fields.causeDescription;
    this.idempotencyKey = fields.idempotencyKey;
  }
}

/** `waitForOperation` reached its deadline before the operation was done. */
export class OperationDeadlineError extends CloudClientError {
  override name = 'OperationDeadlineError';
  readonly operationId: string;
  readonly deadlineMs: number;
  readonly polls: number;
  readonly lastRecord: unknown;

  constructor(fields: { operationId: string; deadlineMs: number; polls: number; lastRecord: unknown }) {
    super(
      `Operation ${fields.operationId} was not done within ${fields.deadlineMs} ms (${fields.polls} polls); ` +
        'raise `deadlineMs` or keep polling later with the same operation_id.',
    );
    this.operationId = fields.operationId;
    this.deadlineMs = fields.deadlineMs;
    this.polls = fields.polls;
    this.lastRecord = fields.lastRecord;
  }
}

/**
 * `waitForOperation` saw the operation end in a failed state (by default `status` `failed` or
 * `cancelled`; the document does not show the operation states, see `waitForOperation`'s
 * `outcome`). `record` is the last polled record.
 */
export class OperationFailedError<TRecord = unknown> extends CloudClientError {
  override name = 'OperationFailedError';
  readonly operationId: string;
  /** The record's `status`, when it has a string one. */
  readonly status: string | undefined;
  readonly record: TRecord;

  /** `errorMessage`: the record's own explanation, token already removed. */
  constructor(fields: { operationId: string; record: TRecord; errorMessage?: string | undefined }) {
    const record = fields.record as { status?: unknown } | null;
    const status = typeof record?.status === 'string' ? record.status : undefined;
    const why = fields.errorMessage === undefined ? '' : `: ${fields.errorMessage}`;
    super(
      `Operation ${fields.operationId} ended ${status === undefined ? 'in failure' : `as ${status}`}${why}.`,
    );
    this.operationId = fields.operationId;
    this.status = status;
    this.record = fields.record;
  }
}

/** Builds an `ApiError` from an HTTP answer, token removed from everything taken from the body. */
export function apiErrorFromResponse(
  fields: {
    operationId: string;
    method: string;
    path: string;
    status: number;
    bodyText: string;
    headers?: Readonly<Record<string, string>> | undefined;
    requestId?: string | undefined;
    idempotencyKey?: string | undefined;
  },
  redact: Redactor,
): ApiError {
  const text = redact(fields.bodyText);
  let body: unknown = text.length > 500 ? `${text.slice(0, 500)}…` : text;
  let detail: string | undefined;
  let summary: string;
  try {
    const parsed: unknown = JSON.parse(text);
    body = parsed;
    if (isRecord(parsed) && typeof parsed.detail === 'string') {
      detail = parsed.detail;
      summary = detail;
    } else {
      summary = 'the error body is JSON without a string `detail`';
    }
  } catch {
    summary =
      text.trim().length === 0
        ? 'the answer has no body'
        : `the body is not JSON: ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`;
  }
  return new ApiError({ ...fields, detail, body, summary });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
