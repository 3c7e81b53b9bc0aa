export { descendantPids, killDescendants } from './engine/processTree.js';
export {
  DEFAULT_CONCURRENCY,
  effectiveConcurrency,
  MAX_CONCURRENCY,
  productionGuard,
  type RunOptions,
  type RunResult,
  RunSetupError,
  reportWriters,
  runConformance,
} from './engine/runConformance.js';
export { createTargetHttp, type TargetHttp } from './http/targetHttp.js';
export { type MutationSummary, renderMutationMatrix, runMutants } from './mutants/mutationRun.js';
export type { ReportContext, ReportWriter } from './reporters/reportWriter.js';
export {
  type CheckState,
  EXIT_CODES,
  type RuleOutcome,
  type RunOutcome,
  type RunVerdict,
  type TestOutcome,
} from './reporters/runOutcome.js';
export { findRule, type RuleEntry, rules, selectRules } from './ruleCatalogue/index.js';
export { createSecretRedactor, type SecretRedactor, secretForms } from './secrets/secretRedactor.js';
export { createResponseValidator } from './spec/responseValidator.js';
export * from './targetProfile/index.js';
export { startPrismTarget } from './targets/prismTarget.js';
export { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from './targets/sandboxTarget.js';
