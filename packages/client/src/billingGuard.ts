import type { ApiOperation } from '@cloud-api/types';
import type { Client } from 'openapi-fetch';
import { CALL_CONTEXT, type CallContext, withCallContext } from './callContext.js';
import type { ClientLogger } from './clientLogger.js';
import type { ClientPaths } from './clientPaths.js';
import {
  BillingBlockedError,
  type BillingBlockReason,
  CloudClientError,
  InvalidRequestError,
  isRecord,
} from './errors.js';
import type { RuleRequest } from './requestMiddleware.js';
import { requestIdOf } from './responseInfo.js';
import { describeThrown, type Redactor } from './tokenRedaction.js';

/**
 * Gives the `sku_code` the preflight asks about for a billable create. The document does not
 * say how a create maps to a SKU; by default the create's `plan_id` is the SKU code.
 */
export type SkuCodeResolver = (create: {
  readonly operationId: string;
  readonly body: unknown;
}) => string | undefined;

export const planIdAsSkuCode: SkuCodeResolver = ({ body }) =>
  isRecord(body) && typeof body.plan_id === 'string' && body.plan_id !== '' ? body.plan_id : undefined;

/** Runs before a billable create is sent; resolving lets it go, rejecting refuses it. */
export type BillableCreateGuard = (
  request: RuleRequest,
  operation: ApiOperation,
  workspaceId: string,
  call: { readonly signal: AbortSignal | undefined; readonly context: CallContext | undefined },
) => Promise<void>;

type Decision =
  | { readonly allowed: true }
  | {
      readonly reason: BillingBlockReason;
      readonly explanation: string;
      readonly status?: number;
      readonly detail?: string | undefined;
      readonly requestId?: string | undefined;
      readonly causeDescription?: string;
    };

/**
 * Runs the billing eligibility preflight for the same workspace immediately before every
 * billable create (the spec's `x-billable-create`) and lets the create go only when the decision's
 * `allowed` is exactly `true`. Called by the client's transport for every billable create it is
 * about to send, it guards the helper and a raw `api.POST('/compute/cloud-vms', …)` alike,
 * whatever middleware ran before. It never adds anything to the create request.
 *
 * The preflight is part of the create call: it carries the caller's signal (an abort stops it
 * at once) and the call's timeout, and is retried like a read on a network failure, 429 or
 * 502/503/504 (it reserves nothing, so repeating it is safe).
 */
export function billingGuard(settings: {
  readonly api: () => Client<ClientPaths>;
  readonly skuCodeFor: SkuCodeResolver;
  readonly redact: Redactor;
  readonly log: ClientLogger | undefined;
}): BillableCreateGuard {
  async function decide(
    workspaceId: string,
    skuCode: string,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ): Promise<Decision> {
    let answer: { data?: string; error?: unknown; response: Response };
    try {
      answer = await withCallContext(timeoutMs, (context) =>
        settings.api().POST('/billing/resource-eligibility', {
          params: { query: { workspace_id: workspaceId } },
          body: { sku_code: skuCode },
          parseAs: 'text',
          signal: signal ?? null,
          [CALL_CONTEXT]: context,
        } as Parameters<Client<ClientPaths>['POST']>[1] & { [CALL_CONTEXT]: CallContext }),
      );
    } catch (thrown) {
      // The caller's own abort is not a billing decision: it goes through untouched.
      if (signal?.aborted) throw signal.reason;
      // A refusal of the client's own (e.g. a bad workspace) is not "unavailable" either.
      if (thrown instanceof CloudClientError && !isTransportFailure(thrown)) throw thrown;
      return {
        reason: 'unavailable',
        explanation: 'the preflight got no answer',
        causeDescription: describeThrown(thrown, settings.redact),
      };
    }
    const { status } = answer.response;
    const requestId = requestIdOf(answer.response.headers, settings.redact);
    if (!answer.response.ok) {
      return {
        reason: 'unavailable',
        explanation: `the preflight answered HTTP ${status}`,
        status,
        detail: detailOf(answer.error, settings.redact),
        requestId,
      };
    }
    let decision: unknown;
    try {
      decision = JSON.parse(answer.data ?? '');
    } catch {
      return { reason: 'malformed', explanation: 'the preflight answer is not JSON', status, requestId };
    }
    if (!isRecord(decision) || typeof decision.allowed !== 'boolean') {
      return {
        reason: 'malformed',
        explanation: 'the preflight answer has no boolean `allowed`',
        status,
        requestId,
      };
    }
    if (decision.allowed !== true) {
      return { reason: 'denied', explanation: 'the decision says `allowed: false`', status, requestId };
    }
    return { allowed: true };
  }

  // The transport checked before this that the request carries exactly this one canonical workspace_id.
  return async function guard(request, operation, workspaceId, call): Promise<void> {
    const bodyText = await request.clone().text();
    let body: unknown;
    try {
      body = bodyText === '' ? undefined : JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
    const skuCode = settings.skuCodeFor({ operationId: operation.operationId, body });
    if (typeof skuCode !== 'string' || skuCode === '') {
      throw new InvalidRequestError(
        `${operation.operationId} needs a SKU code for its billing eligibility preflight: give the body a \`plan_id\` ` +
          '(sent as `sku_code`) or pass `billing.skuCodeFor` to createCloudClient. Nothing was sent.',
      );
    }
    if (call.context) call.context.skuCode = skuCode;
    const decision = await decide(workspaceId, skuCode, call.signal, call.context?.timeoutMs);
    if ('allowed' in decision) return;
    const error = new BillingBlockedError({
      ...decision,
      skuCode,
      operationId: operation.operationId,
      workspaceId,
    });
    settings.log?.({
      level: 'warn',
      event: 'billing-blocked',
      message: error.message,
      method: request.method,
      ...(decision.status === undefined ? {} : { status: decision.status }),
      ...(decision.requestId === undefined ? {} : { requestId: decision.requestId }),
    });
    throw error;
  };
}

/** The client's errors for a request that got no usable answer in time. */
function isTransportFailure(error: CloudClientError): boolean {
  return error.name === 'NetworkError' || error.name === 'RequestTimeoutError';
}

/** The `detail` of a JSON error body as openapi-fetch parsed it (or left it as text), token removed. */
export function detailOf(error: unknown, redact: Redactor): string | undefined {
  let parsed = error;
  if (typeof error === 'string') {
    try {
      parsed = JSON.parse(error);
    } catch {
      return undefined;
    }
  }
  return isRecord(parsed) && typeof parsed.detail === 'string' ? redact(parsed.detail) : undefined;
}
