export {
  type CreateSandboxOptions,
  createSandbox,
  type ListeningSandbox,
  type Sandbox,
} from './createSandbox.js';
export {
  type DefaultSandboxProfileOptions,
  defaultSandboxProfile,
  exampleTokenSecret,
} from './defaultSandboxProfile.js';
export { type FaultEntry, type FaultId, faultCatalogue, isFaultId } from './faultCatalogue.js';
export { canonicalJson } from './idempotency.js';
export { SANDBOX_SKUS } from './operations/billingEligibility.js';
export { readProfileFile, writeProfileFile } from './profileFile.js';
export { API_BASE_PATH } from './requestPipeline.js';
export {
  type SandboxEnvironment,
  type SandboxIdentity,
  type SandboxNatRuleRef,
  type SandboxProfile,
  SandboxProfileError,
  type SandboxResources,
} from './sandboxProfile.js';
export { SANDBOX_FIXTURES, SANDBOX_ORGANIZATION, type SandboxStore } from './sandboxStore.js';
export { isVariantId, type VariantEntry, type VariantId, variantCatalogue } from './variantCatalogue.js';
