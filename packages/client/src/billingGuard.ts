import type { ApiOperation } from '@cloud-api/types';
import type { Client } from 'openapi-fetch';
import type { ClientLogger } from './clientLogger.js';
import type { ClientPaths } from './clientPaths.js';
import { BillingBlockedError, type BillingBlockReason, InvalidRequestError, isRecord } from './errors.js';
import type { BillableCreateGuard } from './requestMiddleware.js';
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

type Decision =
  | { readonly allowed: true }
  | {
      readonly reason: BillingBlockReason;
      readonly explanation: string;
      readonly status?: number;
      readonly causeDescription?: string;
    };

/**
 * Runs the billing eligibility preflight for the same workspace immediately before every
 * billable create (the spec's `x-billable-create`) and lets the create go only when the decision's
 * `allowed` is exactly `true`. Called by the client's transport (`requestRules`) for every
 * billable create it is about to send, it guards the helper and a raw
 * `api.POST('/compute/cloud-vms', …)` alike, whatever middleware ran before. It never adds anything to the create request.
 */
export function billingGuard(settings: {
  readonly api: () => Client<ClientPaths>;
  readonly skuCodeFor: SkuCodeResolver;
  readonly redact: Redactor;
  readonly log: ClientLogger | undefined;
}): BillableCreateGuard {
  async function decide(workspaceId: string, skuCode: string): Promise<Decision> {
    let answer: { data?: string; error?: unknown; response: Response };
    try {
      answer = await settings.api().POST('/billing/resource-eligibility', {
        params: { query: { workspace_id: workspaceId } },
        body: { sku_code: skuCode },
        parseAs: 'text',
      });
    } catch (thrown) {
      return {
        reason: 'unavailable',
        explanation: 'the preflight got no answer',
        causeDescription: describeThrown(thrown, settings.redact),
      };
    }
    const { status } = answer.response;
    if (!answer.response.ok) {
      return { reason: 'unavailable', explanation: `the preflight answered HTTP ${status}`, status };
    }
    let decision: unknown;
    try {
      decision = JSON.parse(answer.data ?? '');
    } catch {
      return { reason: 'malformed', explanation: 'the preflight answer is not JSON', status };
    }
    if (!isRecord(decision) || typeof decision.allowed !== 'boolean') {
      return { reason: 'malformed', explanation: 'the preflight answer has no boolean `allowed`', status };
    }
    if (decision.allowed !== true) {
      return { reason: 'denied', explanation: 'the decision says `allowed: false`', status };
    }
    return { allowed: true };
  }

  // requestRules checked before this that the request carries exactly this one canonical workspace_id.
  return async function guard(request, operation: ApiOperation, workspaceId): Promise<undefined> {
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
    const decision = await decide(workspaceId, skuCode);
    if ('allowed' in decision) return undefined;
    const error = new BillingBlockedError({
      ...decision,
      operationId: operation.operationId,
      workspaceId,
    });
    settings.log?.({
      level: 'warn',
      event: 'billing-blocked',
      message: error.message,
      method: request.method,
    });
    throw error;
  };
}
