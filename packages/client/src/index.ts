export type {
  BackupPolicy,
  BillingEligibilityDecision,
  BucketList,
  CloudVmRestore,
  CreateCloudVmRequest,
  EnableGpuVmBackupsRequest,
  ErrorDetail,
  NatPortForwardingRule,
  OperationAcceptance,
  UpdateNatPortForwardingRuleRequest,
} from '@cloud-api/types';
export type { SkuCodeResolver } from './billingGuard.js';
export type { ClientLogEntry, ClientLogger } from './clientLogger.js';
export type { ClientPaths } from './clientPaths.js';
export {
  type CallOptions,
  type CloudClient,
  type CloudClientOptions,
  createCloudClient,
  type KeyedCallOptions,
  type NatPortForwardingRuleRef,
} from './createCloudClient.js';
export type { EnvironmentUrls } from './environmentBinding.js';
export {
  ApiError,
  BaseUrlError,
  BillingBlockedError,
  type BillingBlockReason,
  ClientConfigError,
  CloudClientError,
  InvalidRequestError,
  NetworkError,
  OperationDeadlineError,
  OperationFailedError,
  RequestTimeoutError,
  TokenEnvironmentError,
  WorkspaceIdError,
} from './errors.js';
export {
  defaultOperationOutcome,
  type OperationOutcome,
  type OperationRecord,
  type WaitForOperationOptions,
} from './operationPolling.js';
export { type RetryOptions, retryAfterMs } from './retryPolicy.js';
export { maskTokenShapes } from './tokenShapes.js';
export type { FetchFunction } from './transport.js';
export { CLIENT_NAME, CLIENT_VERSION } from './version.js';
