import { jsonResult, type OperationResult } from '../operationResult.js';
import type { SandboxProfile } from '../sandboxProfile.js';
import type { OperationHandler } from './operationContext.js';

/**
 * SKUs the sandbox prices besides the profile's own. The document does not show how a create maps
 * to a SKU; the client sends the create's `plan_id` as `sku_code` by default, so the plans its
 * README quickstart and the docs' guides use (`plan-std-2c-4g`, `plan-std-4c-8g`) are SKUs here too,
 * and the quickstart works against the sandbox as written. Listed in the README (a test checks).
 */
export const SANDBOX_SKUS: readonly string[] = [
  'cloud-vm-standard-2',
  'cloud-vm-standard-4',
  'cloud-vm-memory-8',
  'gpu-vm-a100-1',
  'plan-std-2c-4g',
  'plan-std-4c-8g',
];

/**
 * Billing eligibility per workspace and SKU: the billing-denied workspace may create nothing,
 * other workspaces of the organization may create any known SKU.
 */
export class BillingEligibility {
  private readonly deniedWorkspace: string | undefined;
  private readonly skus: ReadonlySet<string>;

  constructor(profile: SandboxProfile) {
    this.deniedWorkspace = profile.workspaces.billingDenied;
    this.skus = new Set([profile.billing.skuCode, ...SANDBOX_SKUS]);
  }

  /** `skuCode` undefined asks about the workspace as a whole (the gateway's decision for a create). */
  allows(workspaceId: string, skuCode: string | undefined): boolean {
    if (workspaceId === this.deniedWorkspace) return false;
    return skuCode === undefined || this.skus.has(skuCode);
  }
}

export const checkResourceEligibility: OperationHandler = (request, services): OperationResult => {
  const skuCode = (request.body as { sku_code?: string }).sku_code;
  const allowed = services.billing.allows(request.workspaceId, skuCode);
  if (services.behaviour.fault === 'preflight-allowed-as-string')
    return jsonResult(200, { allowed: String(allowed) });
  return jsonResult(200, { allowed });
};
