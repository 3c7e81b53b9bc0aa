export {
  productionGuard,
  type RunOptions,
  type RunResult,
  RunSetupError,
  reportWriters,
  runConformance,
} from './engine/runConformance.js';
export { createTargetHttp, type TargetHttp } from './http/targetHttp.js';
export { type MutationSummary, renderMutationMatrix, runMutants } from './mutants/mutationRun.js';
export type { ReportWriter } from './reporters/reportWriter.js';
export type { RuleOutcome, RunOutcome, TestOutcome } from './reporters/runOutcome.js';
export { findRule, type RuleEntry, rules, selectRules } from './ruleCatalogue/index.js';
export { createResponseValidator } from './spec/responseValidator.js';
export * from './targetProfile/index.js';
export { startPrismTarget } from './targets/prismTarget.js';
export { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from './targets/sandboxTarget.js';
