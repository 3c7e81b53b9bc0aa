import type { PendingResult } from '../operationResult.js';
import type { SandboxBehaviour } from '../sandboxBehaviour.js';
import type { SandboxClock } from '../sandboxClock.js';
import type { SandboxStore } from '../sandboxStore.js';
import type { SpecContract } from '../specContract.js';
import type { Caller } from '../tokenAuthenticator.js';
import type { BillingEligibility } from './billingEligibility.js';

/** Everything an operation may use; built once per sandbox, with per-request fields. */
export interface SandboxServices {
  readonly store: SandboxStore;
  readonly clock: SandboxClock;
  readonly behaviour: SandboxBehaviour;
  readonly contract: SpecContract;
  readonly billing: BillingEligibility;
}

export interface OperationRequest {
  readonly caller: Caller;
  readonly workspaceId: string;
  readonly pathParameters: Readonly<Record<string, string>>;
  /** The parsed body, valid against the operation's request schema; undefined without one. */
  readonly body: unknown;
  /** The X-Idempotency-Key, where the operation takes one. */
  readonly idempotencyKey?: string | undefined;
  /** Top-level body members written as floats (`8082.0`), which the nat-rule-port-float-kept fault's parser keeps. */
  readonly floatMembers?: readonly string[];
}

/** An operation's answer; a promise only where a concurrency fault or variant takes a store round trip. */
export type OperationHandler = (request: OperationRequest, services: SandboxServices) => PendingResult;

export const NOT_FOUND_DETAIL = (what: string, id: string, workspaceId: string) =>
  `${what} ${id} was not found in workspace ${workspaceId}.`;
