export type { Check, CheckContext, CheckResult, CheckVerdict, PropertyOptions } from './checks/check.js';
export { defineCheck } from './checks/check.js';
export { checkRegistry, findCheck, type RegisteredCheck } from './checks/registry.js';
export { type MutationSummary, renderMutationMatrix, runMutants } from './mutants/mutationRun.js';
export { JSON_REPORT_FILE, outcomeReporter, progressReporter, reporterRegistry } from './reporters/index.js';
export { findRule, type RuleEntry, rules, selectRules } from './ruleCatalogue/index.js';
export { type CheckRun, runCheck } from './run/checkRunner.js';
export { type RunOptions, type RunResult, runConformance } from './run/engine.js';
export type { CheckRef, ReportContext, Reporter, RunEvent } from './run/events.js';
export {
  DEFAULT_CONCURRENCY,
  MAX_CONCURRENCY,
  MAX_DEPTH,
  MAX_SEED,
  OPTION_LIMITS,
} from './run/options.js';
export type { CheckState, RuleOutcome, RunOutcome, RunVerdict, TestOutcome } from './run/outcome.js';
export { effectiveConcurrency, planChecks } from './run/plan.js';
export { descendantPids, killDescendants } from './run/processTree.js';
export { type PreparedRun, prepareRun, type RunSettings } from './run/runSetup.js';
export { RunSetupError } from './run/runSetupError.js';
export { EXIT_CODES } from './run/verdict.js';
export { createSecretRedactor, type SecretRedactor, secretForms } from './secrets/secretRedactor.js';
export type { Session } from './session/session.js';
export { createResponseValidator } from './spec/responseValidator.js';
export * from './targetProfile/index.js';
export { startPrismTarget } from './targets/prismTarget.js';
export { productionGuard } from './targets/resolveTarget.js';
export { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from './targets/sandboxTarget.js';
export { createTargetHttp, type TargetHttp } from './transport/targetHttp.js';
