export type { CheckResult, CheckVerdict } from './checks/check.js';
export { checkRegistry, type RegisteredCheck } from './checks/registry.js';
export { type MutationSummary, renderMutationMatrix, runMutants } from './mutants/mutationRun.js';
export { outcomeReporter, reporterRegistry } from './reporters/index.js';
export {
  findRule,
  type RuleEntry,
  rules,
  selectRules,
  type Threat,
  type ThreatMechanism,
  threatMechanisms,
} from './ruleCatalogue/index.js';
export { type RunOptions, type RunResult, runConformance } from './run/engine.js';
export type {
  CheckRef,
  ExchangeEvent,
  ObservedBody,
  ObservedExchange,
  ReportContext,
  Reporter,
  RunEvent,
} from './run/events.js';
export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './run/options.js';
export type { CheckState, RuleOutcome, RunOutcome, RunVerdict, TestOutcome } from './run/outcome.js';
export { effectiveConcurrency } from './run/plan.js';
export { descendantPids, killDescendants } from './run/processTree.js';
export { RunSetupError } from './run/runSetupError.js';
export { EXIT_CODES } from './run/verdict.js';
export { createSecretRedactor, type SecretRedactor, secretForms } from './secrets/secretRedactor.js';
export { createResponseValidator } from './spec/responseValidator.js';
export * from './targetProfile/index.js';
export { startPrismTarget } from './targets/prismTarget.js';
export { productionGuard } from './targets/resolveTarget.js';
export { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from './targets/sandboxTarget.js';
export { createTargetHttp, type TargetHttp } from './transport/targetHttp.js';
