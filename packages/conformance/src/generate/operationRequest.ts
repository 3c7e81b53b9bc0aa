import { randomUUID } from 'node:crypto';
import type { OperationEntry } from '@cloud-api/spec';
import type { Session } from '../session/session.js';
import type { ApiRequest } from '../transport/exchange.js';
import { cloudVmBody } from './cloudVmBody.js';

/** Operations whose success changes state on the target. */
export const MUTATING_OPERATIONS: ReadonlySet<string> = new Set([
  'createCloudVm',
  'enableGpuVmBackups',
  'deleteGpuVm',
  'updateNatPortForwardingRule',
  'releaseReservedIp',
]);

/** Operations that consume their resource on success; positive probes use a missing ID for them. */
const CONSUMING_OPERATIONS: ReadonlySet<string> = new Set(['deleteGpuVm', 'releaseReservedIp']);

/**
 * `probe`: an otherwise valid request that a correct target refuses (one rule broken by the caller).
 * `positive`: a request a correct target must not refuse for auth, scope or workspace.
 */
export type RequestPurpose = 'probe' | 'positive';

export interface RequestOverrides {
  readonly token?: string;
  /** Whole Authorization header value; `null` leaves the header out. */
  readonly authorization?: string | null;
  /** `null` leaves the `workspace_id` parameter out. */
  readonly workspaceId?: string | null;
  /** `null` leaves `X-Idempotency-Key` out. */
  readonly idempotencyKey?: string | null;
  /** Raw body text; `null` sends none. */
  readonly body?: string | null;
  readonly contentType?: string | null;
  readonly pathIds?: Readonly<Record<string, string>>;
}

export function missingId(kind: string): string {
  return `conformance-missing-${kind}-${randomUUID().slice(0, 8)}`;
}

/** The IDs a request of `op` for `purpose` names in its path; undefined when the profile has none. */
export function pathIdsFor(
  op: OperationEntry,
  session: Session,
  purpose: RequestPurpose,
): Record<string, string> | undefined {
  const plan = session.plan;
  const consuming = CONSUMING_OPERATIONS.has(op.operationId);
  switch (op.operationId) {
    case 'enableGpuVmBackups':
      return plan.gpuVmProbe ? { vm_id: plan.gpuVmProbe } : undefined;
    case 'deleteGpuVm':
      if (purpose === 'positive' && consuming) return { vm_id: missingId('vm') };
      return plan.deleteProbe ? { vm_id: plan.deleteProbe } : undefined;
    case 'getCloudVmSnapshotRestore':
      return plan.restore ? { restore_id: plan.restore } : undefined;
    case 'updateNatPortForwardingRule':
      return plan.natRule
        ? {
            vpc_id: plan.natRule.vpcId,
            nat_gateway_id: plan.natRule.natGatewayId,
            port_forwarding_rule_id: plan.natRule.ruleId,
          }
        : undefined;
    case 'releaseReservedIp':
      if (purpose === 'positive') return { reserved_ip_id: missingId('rip') };
      return plan.releaseProbe ? { reserved_ip_id: plan.releaseProbe } : undefined;
    default:
      return {};
  }
}

/** The valid body of each operation; bodies the document leaves open are the spec examples or the profile's. */
export function defaultBody(op: OperationEntry, session: Session): unknown {
  switch (op.operationId) {
    case 'checkResourceEligibility':
      return { sku_code: session.profile.billing.skuCode };
    case 'createCloudVm':
      return cloudVmBody(session.profile);
    case 'enableGpuVmBackups':
    case 'updateNatPortForwardingRule':
      return {};
    default:
      return undefined;
  }
}

/** Operations usable for a purpose on this profile: read-only ones unless mutations are allowed, and only those whose resources exist. */
export function usableOperations(session: Session, purpose: RequestPurpose): OperationEntry[] {
  return session.operations.filter(
    (op) =>
      (session.profile.mutations === true || !MUTATING_OPERATIONS.has(op.operationId)) &&
      // A positive create would create a VM per run: creates happen only in their own bounded checks.
      !(purpose === 'positive' && op.operationId === 'createCloudVm') &&
      pathIdsFor(op, session, purpose) !== undefined,
  );
}

/** Builds an otherwise valid request for `op`, changed only where `overrides` says. */
export function operationRequest(
  op: OperationEntry,
  session: Session,
  purpose: RequestPurpose,
  overrides: RequestOverrides = {},
): ApiRequest {
  const ids = { ...pathIdsFor(op, session, purpose), ...overrides.pathIds };
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(ids[name] ?? missingId(name)),
  );
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = overrides.token ?? session.fullToken(op.scope);
  if (overrides.authorization !== null) headers.authorization = overrides.authorization ?? `Bearer ${token}`;
  if (op.idempotencyKeyRequired && overrides.idempotencyKey !== null)
    headers['x-idempotency-key'] = overrides.idempotencyKey ?? randomUUID();
  let body: string | undefined;
  if (overrides.body !== null) {
    if (overrides.body !== undefined) body = overrides.body;
    else {
      const value = defaultBody(op, session);
      if (value !== undefined) body = JSON.stringify(value);
    }
  }
  if (body !== undefined && overrides.contentType !== null)
    headers['content-type'] = overrides.contentType ?? 'application/json';
  const workspace =
    overrides.workspaceId === undefined ? session.profile.workspaces.primary : overrides.workspaceId;
  const query: [string, string][] = workspace === null ? [] : [['workspace_id', workspace]];
  return { method: op.method.toUpperCase(), path, query, headers, ...(body !== undefined ? { body } : {}) };
}
