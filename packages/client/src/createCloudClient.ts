import type {
  BackupPolicy,
  BillingEligibilityDecision,
  BucketList,
  CloudVmRestore,
  CreateCloudVmRequest,
  EnableGpuVmBackupsRequest,
  NatPortForwardingRule,
  OperationAcceptance,
  OperationId,
  UpdateNatPortForwardingRuleRequest,
} from '@cloud-api/types';
import { apiOperations } from '@cloud-api/types';
import createClient, { type Client, createQuerySerializer, type Middleware } from 'openapi-fetch';
import { billingGuard, detailOf, planIdAsSkuCode, type SkuCodeResolver } from './billingGuard.js';
import { CALL_CONTEXT, CallContext } from './callContext.js';
import { type ClientLogger, safeLogger } from './clientLogger.js';
import type { ClientPaths } from './clientPaths.js';
import { bindEnvironment, type EnvironmentUrls } from './environmentBinding.js';
import { ApiError, apiErrorFromResponse, BillingBlockedError, ClientConfigError } from './errors.js';
import { guardedApi } from './guardedApi.js';
import { LightRequest } from './lightRequest.js';
import {
  checkPollingPath,
  type OperationRecord,
  pollUntilDone,
  type WaitForOperationOptions,
} from './operationPolling.js';
import { cachedPathSerializer } from './pathSerializer.js';
import { requestRules } from './requestMiddleware.js';
import { headerRecord, requestIdOf } from './responseInfo.js';
import { type RetryOptions, resolveRetryOptions } from './retryPolicy.js';
import { tokenRedactor } from './tokenRedaction.js';
import { createTransport, type FetchFunction, resolveTimeoutMs } from './transport.js';
import { canonicalWorkspaceId } from './workspaceId.js';

export interface CloudClientOptions {
  /** Platform API token: `svc_prod_key_…` (production) or `svc_dev_key_…` (development). */
  readonly token: string;
  /** Workspace every request is scoped to (a positive decimal integer); a call may override it. */
  readonly workspaceId: string | number;
  /**
   * Base URLs of the environments, each ending in `/v1`. The token's environment needs one: the
   * spec's server hosts are `.invalid` placeholders, and a client left on one is refused here.
   */
  readonly environments?: EnvironmentUrls;
  /** Optional cross-check: must equal the base URL of the token's environment. */
  readonly baseUrl?: string;
  /** The fetch to send requests with (default: global fetch). Receives a `Request`. */
  readonly fetch?: FetchFunction;
  /**
   * Retries of requests safe to repeat (reads, keyed VM operations, the billing preflight) after a
   * network failure, a timeout, 429 or 502/503/504. On by default; `false` opts out.
   */
  readonly retry?: RetryOptions | false;
  /** Per-attempt timeout in milliseconds, covering the answer and its body. Default 30 000. */
  readonly timeoutMs?: number;
  /** Receives structured log entries (never the token, headers or bodies). */
  readonly logger?: ClientLogger;
  readonly billing?: {
    /** SKU code the preflight asks about for a billable create. Default: the body's `plan_id`. */
    readonly skuCodeFor?: SkuCodeResolver;
  };
}

export interface CallOptions {
  /** Overrides the client's workspace for this call. */
  readonly workspaceId?: string | number;
  /** Aborts the call (its preflight and retries too) with the signal's reason, untouched. */
  readonly signal?: AbortSignal;
  /** Per-attempt timeout of this call, overriding the client's `timeoutMs`. */
  readonly timeoutMs?: number;
}

export interface KeyedCallOptions extends CallOptions {
  /** Replays a request with this key; by default a fresh UUID is used per call. */
  readonly idempotencyKey?: string;
}

export interface NatPortForwardingRuleRef {
  readonly vpcId: string;
  readonly natGatewayId: string;
  readonly portForwardingRuleId: string;
}

export interface CloudClient {
  /** The typed openapi-fetch client, every rule applied: returns `{ data, error, response }`. */
  readonly api: Client<ClientPaths>;
  readonly environment: 'production' | 'development';
  readonly baseUrl: string;
  readonly workspaceId: string;
  checkBillingEligibility(skuCode: string, options?: CallOptions): Promise<BillingEligibilityDecision>;
  listBuckets(options?: CallOptions): Promise<BucketList>;
  createCloudVm(body: CreateCloudVmRequest, options?: KeyedCallOptions): Promise<OperationAcceptance>;
  enableGpuVmBackups(
    vmId: string,
    body?: EnableGpuVmBackupsRequest,
    options?: CallOptions,
  ): Promise<BackupPolicy>;
  deleteGpuVm(vmId: string, options?: KeyedCallOptions): Promise<OperationAcceptance>;
  getCloudVmSnapshotRestore(restoreId: string, options?: CallOptions): Promise<CloudVmRestore>;
  updateNatPortForwardingRule(
    rule: NatPortForwardingRuleRef,
    body: UpdateNatPortForwardingRuleRequest,
    options?: CallOptions,
  ): Promise<NatPortForwardingRule>;
  releaseReservedIp(reservedIpId: string, options?: CallOptions): Promise<void>;
  /**
   * Polls an operation until it ends: resolves with the record when it succeeded, throws
   * `OperationFailedError` when it failed and `OperationDeadlineError` at the deadline. The
   * polling `path` is required: the document does not show it.
   */
  waitForOperation<TRecord = OperationRecord>(
    operationId: string,
    options: WaitForOperationOptions<TRecord>,
  ): Promise<TRecord>;
}

type TextAnswer = { data?: string; error?: unknown; response: Response };

/** What a helper hands openapi-fetch besides its parameters and body. */
type CallInit = { parseAs: 'text'; signal: AbortSignal | null; [CALL_CONTEXT]: CallContext };

/**
 * Statuses a billable create may get for reasons the document names otherwise: 400 invalid
 * request, 401 token; 404 and 429 are not refusals either. Any other 4xx answer to a billable
 * create is the gateway's billing refusal (whose status the document does not show).
 */
const NOT_A_BILLING_REFUSAL = new Set([400, 401, 404, 429]);

/**
 * Creates a client bound to one token, its environment and a workspace. Configuration mistakes
 * (unknown token prefix, other environment's URL, a placeholder or version-less base URL, bad
 * workspace id) throw here, before any request.
 */
export function createCloudClient(options: CloudClientOptions): CloudClient {
  if (typeof options !== 'object' || options === null) {
    throw new ClientConfigError('createCloudClient needs an options object: { token, workspaceId, … }.');
  }
  const { token } = options;
  const binding = bindEnvironment({ token, environments: options.environments, baseUrl: options.baseUrl });
  const redact = tokenRedactor(token);
  const defaultWorkspaceId = canonicalWorkspaceId(options.workspaceId, 'workspaceId');
  const retry = resolveRetryOptions(options.retry);
  const timeoutMs = resolveTimeoutMs(options.timeoutMs);
  const log = safeLogger(options.logger, redact);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ClientConfigError('`fetch` must be a function that takes a Request and returns a Response.');
  }
  const skuCodeFor = options.billing?.skuCodeFor ?? planIdAsSkuCode;

  const serializeQuery = createQuerySerializer();
  // What the helpers send when the call names no workspace: built once, not per call.
  const defaultQuery = Object.freeze({ workspace_id: defaultWorkspaceId });
  const defaultQueryString = `workspace_id=${defaultWorkspaceId}`;
  // The rules live in the transport, not in an openapi-fetch middleware: they then see the
  // request exactly as sent, after any middleware of the caller, and openapi-fetch skips its
  // per-request middleware work while `api` has none.
  const rules = requestRules({ baseUrl: binding.baseUrl, environment: binding.environment, token });
  const billableCreateGuard = billingGuard({ api: () => core(), skuCodeFor, redact, log });
  const transportFor = (fetch: FetchFunction | undefined) =>
    createTransport({ fetch, retry, timeoutMs, redact, log, rules, billableCreateGuard });
  const middleware: Middleware[] = [];
  const coreOptions = {
    baseUrl: binding.baseUrl,
    fetch: transportFor(options.fetch),
    pathSerializer: cachedPathSerializer(),
    // Fills in the client's workspace unless the call names one, and refuses a malformed one.
    querySerializer: (query: Record<string, unknown>) => {
      if (query === defaultQuery) return defaultQueryString;
      const workspaceId =
        query.workspace_id === undefined
          ? defaultWorkspaceId
          : canonicalWorkspaceId(query.workspace_id, 'workspace_id');
      for (const name in query) {
        if (name !== 'workspace_id') return serializeQuery({ ...query, workspace_id: workspaceId });
      }
      // The usual query: a canonical id is digits only, so there is nothing to escape.
      return `workspace_id=${workspaceId}`;
    },
  };
  // Two openapi-fetch clients over the one transport. Caller middleware are promised real
  // Requests, so they are registered on `cores.real` only; while there are none, calls go through
  // `cores.light`, whose requests are LightRequests: one real Request per attempt, not two.
  const cores = {
    light: createClient<ClientPaths>({ ...coreOptions, Request: LightRequest as unknown as typeof Request }),
    real: createClient<ClientPaths>(coreOptions),
  };
  const core = () => (middleware.length > 0 ? cores.real : cores.light);
  const api = guardedApi(cores, transportFor, middleware);

  const query = (call: CallOptions | undefined) =>
    call?.workspaceId === undefined
      ? defaultQuery
      : { workspace_id: canonicalWorkspaceId(call.workspaceId, 'workspaceId') };
  const keyHeader = (call: KeyedCallOptions | undefined) =>
    call?.idempotencyKey === undefined ? {} : { 'X-Idempotency-Key': call.idempotencyKey };

  /** What an `ApiError` says about the call; built only when there is an error to report. */
  const errorFields = (operationId: OperationId, response: Response, context: CallContext) => {
    const { method, path } = apiOperations[operationId];
    return {
      operationId,
      method: method.toUpperCase(),
      path,
      status: response.status,
      headers: headerRecord(response.headers, redact),
      requestId: requestIdOf(response.headers, redact),
      idempotencyKey: context.idempotencyKey,
    };
  };

  /** The helper's result from openapi-fetch's answer, or the error it stands for. */
  function readAnswer<T>(
    operationId: OperationId,
    answer: TextAnswer,
    hasBody: boolean,
    context: CallContext,
    workspaceId: string,
  ): T {
    const { data, error, response } = answer;
    if (!response.ok) {
      const fields = errorFields(operationId, response, context);
      const { status } = response;
      if (apiOperations[operationId].billableCreate && status < 500 && !NOT_A_BILLING_REFUSAL.has(status)) {
        throw new BillingBlockedError({
          reason: 'refused',
          operationId,
          workspaceId,
          explanation: `HTTP ${status} without an acceptance record; the document does not show the status of the gateway's billing refusal`,
          skuCode: context.skuCode,
          status,
          detail: detailOf(error, redact),
          requestId: fields.requestId,
          idempotencyKey: context.idempotencyKey,
        });
      }
      const bodyText = error === undefined ? '' : typeof error === 'string' ? error : JSON.stringify(error);
      throw apiErrorFromResponse({ ...fields, bodyText }, redact);
    }
    if (!hasBody) return undefined as T;
    try {
      return JSON.parse(data ?? '') as T;
    } catch {
      const fields = errorFields(operationId, response, context);
      const problem = apiErrorFromResponse({ ...fields, bodyText: data ?? '' }, redact);
      throw new ApiError({
        ...fields,
        detail: undefined,
        body: problem.body,
        summary: `the ${response.status} answer should be JSON but is not (${problem.message.replace(/^.*: the body/, 'the body')})`,
      });
    }
  }

  /**
   * Runs one helper call: a fresh call context (its per-attempt timeout covers the body, which
   * openapi-fetch has read when `send` resolves), then the answer or the error it stands for.
   */
  async function answer<T>(
    operationId: OperationId,
    hasBody: boolean,
    call: CallOptions | undefined,
    send: (init: CallInit) => Promise<TextAnswer>,
  ): Promise<T> {
    const callTimeoutMs = call?.timeoutMs === undefined ? undefined : resolveTimeoutMs(call.timeoutMs);
    const context = new CallContext(callTimeoutMs);
    try {
      const result = await send({ parseAs: 'text', signal: call?.signal ?? null, [CALL_CONTEXT]: context });
      const workspaceId = call?.workspaceId === undefined ? defaultWorkspaceId : String(call.workspaceId);
      return readAnswer<T>(operationId, result, hasBody, context, workspaceId);
    } catch (thrown) {
      throw context.failure(thrown);
    } finally {
      context.settle();
    }
  }

  const client: CloudClient = {
    api,
    environment: binding.environment,
    baseUrl: binding.baseUrl,
    workspaceId: defaultWorkspaceId,

    checkBillingEligibility(skuCode, call) {
      return answer('checkResourceEligibility', true, call, (init) =>
        core().POST('/billing/resource-eligibility', {
          params: { query: query(call) },
          body: { sku_code: skuCode },
          ...init,
        }),
      );
    },

    listBuckets(call) {
      return answer('listBuckets', true, call, (init) =>
        core().GET('/object-storage/buckets', { params: { query: query(call) }, ...init }),
      );
    },

    createCloudVm(body, call) {
      return answer('createCloudVm', true, call, (init) =>
        core().POST('/compute/cloud-vms', {
          params: { query: query(call), header: keyHeader(call) },
          body,
          ...init,
        }),
      );
    },

    enableGpuVmBackups(vmId, body = {}, call) {
      return answer('enableGpuVmBackups', true, call, (init) =>
        core().POST('/compute/gpu-vms/{vm_id}/backups/enable', {
          params: { path: { vm_id: vmId }, query: query(call) },
          body,
          ...init,
        }),
      );
    },

    deleteGpuVm(vmId, call) {
      return answer('deleteGpuVm', true, call, (init) =>
        core().DELETE('/compute/gpu-vms/{vm_id}', {
          params: { path: { vm_id: vmId }, query: query(call), header: keyHeader(call) },
          ...init,
        }),
      );
    },

    getCloudVmSnapshotRestore(restoreId, call) {
      return answer('getCloudVmSnapshotRestore', true, call, (init) =>
        core().GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
          params: { path: { restore_id: restoreId }, query: query(call) },
          ...init,
        }),
      );
    },

    updateNatPortForwardingRule(rule, body, call) {
      return answer('updateNatPortForwardingRule', true, call, (init) =>
        core().PATCH(
          '/networking/vpcs/{vpc_id}/nat-gateways/{nat_gateway_id}/port-forwarding-rules/{port_forwarding_rule_id}',
          {
            params: {
              path: {
                vpc_id: rule.vpcId,
                nat_gateway_id: rule.natGatewayId,
                port_forwarding_rule_id: rule.portForwardingRuleId,
              },
              query: query(call),
            },
            body,
            ...init,
          },
        ),
      );
    },

    releaseReservedIp(reservedIpId, call) {
      return answer('releaseReservedIp', false, call, (init) =>
        core().DELETE('/networking/reserved-ips/{reserved_ip_id}', {
          params: { path: { reserved_ip_id: reservedIpId }, query: query(call) },
          ...init,
        }),
      );
    },

    async waitForOperation<TRecord = OperationRecord>(
      operationId: string,
      waitOptions: WaitForOperationOptions<TRecord>,
    ): Promise<TRecord> {
      const path = checkPollingPath(waitOptions?.path);
      const pollQuery = query(waitOptions);
      const pollTimeoutMs =
        waitOptions.timeoutMs === undefined ? undefined : resolveTimeoutMs(waitOptions.timeoutMs);
      // The polling path is not in the spec, so it is called through the untyped core of `api`;
      // it still passes every rule (base URL, workspace, token).
      const untyped = () =>
        core() as unknown as { GET(path: string, init: Record<string, unknown>): Promise<TextAnswer> };
      const poll = async () => {
        const context = new CallContext(pollTimeoutMs);
        let result: TextAnswer;
        try {
          result = await untyped().GET(path, {
            params: { path: { operation_id: operationId }, query: pollQuery },
            parseAs: 'text',
            signal: waitOptions.signal ?? null,
            [CALL_CONTEXT]: context,
          });
        } catch (thrown) {
          throw context.failure(thrown);
        } finally {
          context.settle();
        }
        const { data, error, response } = result;
        const fields = {
          operationId: 'waitForOperation',
          method: 'GET',
          path,
          status: response.status,
          headers: headerRecord(response.headers, redact),
          requestId: requestIdOf(response.headers, redact),
        };
        if (!response.ok) {
          const bodyText =
            error === undefined ? '' : typeof error === 'string' ? error : JSON.stringify(error);
          throw apiErrorFromResponse({ ...fields, bodyText }, redact);
        }
        try {
          return JSON.parse(data ?? '') as unknown;
        } catch {
          throw apiErrorFromResponse({ ...fields, bodyText: data ?? '' }, redact);
        }
      };
      return pollUntilDone(operationId, waitOptions, poll, redact);
    },
  };
  return Object.freeze(client);
}
