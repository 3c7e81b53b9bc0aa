import type { FaultId } from './faultCatalogue.js';
import type { VariantId } from './variantCatalogue.js';

/**
 * The switches one sandbox runs with: at most one fault and one variant. Code paths compare
 * against these literal ids, so each fault stays a one-line branch next to the rule it breaks.
 */
export interface SandboxBehaviour {
  readonly fault: FaultId | undefined;
  readonly variant: VariantId | undefined;
  /** Status for an invalid or missing workspace_id (not shown by the document). */
  readonly invalidWorkspaceStatus: number;
  /** Status of the gateway's refusal of a billable create (not shown by the document). */
  readonly billingRefusalStatus: number;
}

export function createSandboxBehaviour(
  fault: FaultId | undefined,
  variant: VariantId | undefined,
): SandboxBehaviour {
  return {
    fault,
    variant,
    invalidWorkspaceStatus: variant === 'workspace-id-422' ? 422 : 400,
    billingRefusalStatus:
      variant === 'billing-refusal-402' ? 402 : variant === 'billing-refusal-409' ? 409 : 403,
  };
}
