import type { components, operations } from './generated/openapi.js';
import { apiOperations, apiServers } from './generated/operations.js';

export type { components, operations, paths } from './generated/openapi.js';
export { apiOperations, apiServers };

type Schemas = components['schemas'];

export type OperationAcceptance = Schemas['OperationAcceptance'];
export type BackupPolicy = Schemas['BackupPolicy'];
export type BackupPolicySchedule = Schemas['BackupPolicySchedule'];
export type NatPortForwardingRule = Schemas['NatPortForwardingRule'];
export type CloudVmRestore = Schemas['CloudVmRestore'];
export type RunStatus = Schemas['RunStatus'];
export type ErrorDetail = Schemas['ErrorDetail'];
export type BillingEligibilityRequest = Schemas['BillingEligibilityRequest'];
export type BillingEligibilityDecision = Schemas['BillingEligibilityDecision'];
export type Bucket = Schemas['Bucket'];
export type BucketList = Schemas['BucketList'];
export type CreateCloudVmRequest = Schemas['CreateCloudVmRequest'];
export type EnableGpuVmBackupsRequest = Schemas['EnableGpuVmBackupsRequest'];
export type UpdateNatPortForwardingRuleRequest = Schemas['UpdateNatPortForwardingRuleRequest'];
export type Timestamp = Schemas['Timestamp'];

/** operationId of every operation of the spec. */
export type OperationId = keyof operations;

/** The facts the client acts on for one operation (see `apiOperations`). */
export type ApiOperation = (typeof apiOperations)[OperationId];

/** The environments of the spec's servers. */
export type ApiEnvironment = (typeof apiServers)[number]['environment'];

/** One server of the spec: its environment, the token prefix it accepts and its default base URL. */
export type ApiServer = (typeof apiServers)[number];
