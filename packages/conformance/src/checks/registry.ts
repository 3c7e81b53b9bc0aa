import { asyncOperationsChecks } from './asyncOperations.js';
import { authenticationChecks } from './authentication.js';
import { authorizationChecks } from './authorization.js';
import { billingClientChecks } from './billingClient.js';
import { billingGatewayChecks } from './billingGateway.js';
import type { Check } from './check.js';
import { concurrentWritesChecks } from './concurrentWrites.js';
import { errorsChecks } from './errors.js';
import { heldOverTimeChecks } from './heldOverTime.js';
import { isolationChecks } from './isolation.js';
import { negativeDataChecks } from './negativeData.js';
import { parameterArrivalChecks } from './parameterArrival.js';
import { recordIdentityChecks } from './recordIdentity.js';
import { recordsChecks } from './records.js';
import { refusedRequestsChecks } from './refusedRequests.js';
import { replayedKeysChecks } from './replayedKeys.js';
import { responsesChecks } from './responses.js';
import { stateRulesChecks } from './stateRules.js';
import { unlistedMembersChecks } from './unlistedMembers.js';
import { workspaceFormsChecks } from './workspaceForms.js';
import { workspaceIdChecks } from './workspaceId.js';

/** A check with the family (the file under `src/checks/`) that declares it. */
export interface RegisteredCheck extends Check {
  readonly family: string;
}

/** Families in the order a run takes them (the order the suite has always run its files in). */
const families: Readonly<Record<string, readonly Check[]>> = {
  asyncOperations: asyncOperationsChecks,
  authentication: authenticationChecks,
  authorization: authorizationChecks,
  billingClient: billingClientChecks,
  billingGateway: billingGatewayChecks,
  errors: errorsChecks,
  concurrentWrites: concurrentWritesChecks,
  isolation: isolationChecks,
  negativeData: negativeDataChecks,
  parameterArrival: parameterArrivalChecks,
  recordIdentity: recordIdentityChecks,
  records: recordsChecks,
  refusedRequests: refusedRequestsChecks,
  replayedKeys: replayedKeysChecks,
  responses: responsesChecks,
  stateRules: stateRulesChecks,
  workspaceForms: workspaceFormsChecks,
  workspaceId: workspaceIdChecks,
  // After every other check that updates the NAT rule (NEG-2 may leave it refusing updates).
  unlistedMembers: unlistedMembersChecks,
  // Last: a create from early in the run is retried late, and a lapse has had time to show.
  heldOverTime: heldOverTimeChecks,
};

/**
 * Every check of the suite: what the rule catalogue's traceability matrix, `--rules`, sharding,
 * replays and the vitest adapter read. Titles are unique (a replay names its check by title).
 */
export const checkRegistry: readonly RegisteredCheck[] = Object.freeze(
  Object.entries(families).flatMap(([family, checks]) => checks.map((check) => ({ ...check, family }))),
);

const duplicate = checkRegistry.find((check, index) =>
  checkRegistry.some((other, at) => at < index && other.title === check.title),
);
if (duplicate) throw new Error(`checkRegistry: two checks are titled "${duplicate.title}"`);

export function findCheck(title: string): RegisteredCheck | undefined {
  return checkRegistry.find((check) => check.title === title);
}
