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

export type BillingBlockReason = 'denied' | 'malformed' | 'unavailable';

/**
 * The billing eligibility preflight did not answer `allowed: true`, so the billable create was not
 * sent. `reason` says whether the decision was a denial, malformed (not JSON, `allowed` missing or
 * not a boolean) or unavailable (network failure, timeout, non-2xx answer).
 */
export class BillingBlockedError extends CloudClientError {
  override name = 'BillingBlockedError';
  readonly reason: BillingBlockReason;
  readonly operationId: string;
  readonly workspaceId: string;
  /** Status of the preflight answer, when there was one. */
  readonly status: number | undefined;
  readonly causeDescription: string | undefined;

  constructor(fields: {
    reason: BillingBlockReason;
    operationId: string;
    workspaceId: string;
    explanation: string;
    status?: number;
    causeDescription?: string;
  }) {
    super(
      `${fields.operationId} was not sent: the billing eligibility preflight for workspace ${fields.workspaceId} ` +
        `was ${fields.reason} (${fields.explanation}). Billable creates are sent only after a decision with \`allowed: true\`.`,
    );
    this.reason = fields.reason;
    this.operationId = fields.operationId;
    this.workspaceId = fields.workspaceId;
    this.status = fields.status;
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

  constructor(fields: {
    status: number;
    detail: string | undefined;
    operationId: string;
    method: string;
    path: string;
    body: unknown;
    summary: string;
  }) {
    super(
      `${fields.operationId} (${fields.method} ${fields.path}) failed with HTTP ${fields.status}: ${fields.summary}`,
    );
    this.status = fields.status;
    this.detail = fields.detail;
    this.operationId = fields.operationId;
    this.method = fields.method;
    this.path = fields.path;
    this.body = fields.body;
  }
}

/** No answer within `timeoutMs` (per attempt), after every allowed retry. */
export class TimeoutError extends CloudClientError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  readonly method: string;
  readonly url: string;
  readonly attempts: number;

  constructor(fields: { timeoutMs: number; method: string; url: string; attempts: number }) {
    super(
      `${fields.method} ${fields.url} got no answer within ${fields.timeoutMs} ms ` +
        `(${fields.attempts} attempt${fields.attempts === 1 ? '' : 's'}); raise \`timeoutMs\` if the API is slow.`,
    );
    this.timeoutMs = fields.timeoutMs;
    this.method = fields.method;
    this.url = fields.url;
    this.attempts = fields.attempts;
  }
}

/** The request failed below HTTP (connection refused, reset, DNS…), after every allowed retry. */
export class NetworkError extends CloudClientError {
  override name = 'NetworkError';
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  readonly causeDescription: string;

  constructor(fields: { method: string; url: string; attempts: number; causeDescription: string }) {
    super(
      `${fields.method} ${fields.url} failed without an HTTP answer after ${fields.attempts} attempt${
        fields.attempts === 1 ? '' : 's'
      }: ${fields.causeDescription}`,
    );
    this.method = fields.method;
    this.url = fields.url;
    this.attempts = fields.attempts;
    this.causeDescription = fields.causeDescription;
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

/** Builds an `ApiError` from an HTTP answer, token removed from everything taken from the body. */
export function apiErrorFromResponse(
  fields: { operationId: string; method: string; path: string; status: number; bodyText: string },
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
