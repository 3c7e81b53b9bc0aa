import type { OperationEntry } from '@cloud-api/spec';
import type { KeyedCreateLog } from '../checks/keyedCreateLog.js';
import type { NatRuleRecords } from '../checks/natRuleRecords.js';
import type { ServedBucketLists } from '../checks/servedBucketLists.js';
import type { ServedRestoreLog } from '../checks/servedRestoreLog.js';
import type { TargetKind } from '../ruleCatalogue/index.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import type { ResponseValidator } from '../spec/responseValidator.js';
import type { CoverageRecorder } from '../specCoverage/coverageRecorder.js';
import type { TargetProfile } from '../targetProfile/index.js';
import type { TargetHttp } from '../transport/targetHttp.js';
import { identityWith } from './identities.js';
import type { ResourcePlan } from './resourcePlan.js';
import { SkipSignal } from './skipSignal.js';

/** What a session is made of: the target, its identities and transport, the run's budget and recorders. */
export interface SessionParts {
  readonly profile: TargetProfile;
  readonly targetKind: TargetKind;
  readonly http: TargetHttp;
  /** Which profile resource each check may use. */
  readonly plan: ResourcePlan;
  /**
   * How every resource of the plan was made for this run alone (a provision command, the embedded
   * sandbox), when it was: one of them answered 404 before the run consumed it is then the
   * target's doing, not an earlier run's. Absent for a profile's own resources.
   */
  readonly freshResources?: string;
  readonly validator: ResponseValidator;
  /** The run's one redaction source: everything written from a check goes through it. */
  readonly redactor: SecretRedactor;
  /** What the checks sent and saw of the spec. */
  readonly coverage: CoverageRecorder;
  /** Every keyed create the run saw accepted (IDEM-2 retries one late). */
  readonly keyedCreates: KeyedCreateLog;
  /** Every restore the run saw served, and where (ISO-1 asks whether one was lost). */
  readonly servedRestores: ServedRestoreLog;
  readonly servedBucketLists: ServedBucketLists;
  /** The latest record each NAT rule was answered with (a read restates a field of it). */
  readonly natRuleRecords: NatRuleRecords;
  /** Runs per property. */
  readonly depth: number;
  /** The run's seed: every property draws its cases from it. */
  readonly seed: number;
  /** Most requests in flight at once, for checks whose cases are independent. */
  readonly concurrency: number;
}

/**
 * Everything a check may use, handed to it explicitly: the target (profile, kind, transport), the
 * identities, the run's budget (depth, concurrency), its random source (the seed) and recorders.
 * One per run; nothing about a run lives in a module.
 */
export interface Session extends SessionParts {
  readonly operations: readonly OperationEntry[];
  /** The token of the broadest identity holding `scope` on the primary workspace. */
  fullToken(scope: string): string;
  operation(operationId: string): OperationEntry;
  /**
   * A request several checks share, sent once per run (a delete that consumes a VM is judged by
   * more than one rule): the first call starts it, later ones get the same answer.
   */
  once<T>(key: string, send: () => Promise<T>): Promise<T>;
}

export function createSession(parts: SessionParts): Session {
  const shared = new Map<string, Promise<unknown>>();
  const { profile, validator } = parts;
  return {
    ...parts,
    operations: validator.operations,
    fullToken(scope) {
      const identity = identityWith(profile, scope, profile.workspaces.primary);
      if (!identity)
        throw new SkipSignal(
          `profile has no identity holding ${scope} on workspace ${profile.workspaces.primary}`,
        );
      return identity.token;
    },
    operation(operationId) {
      const op = validator.operations.find((o) => o.operationId === operationId);
      if (!op) throw new Error(`Unknown operation ${operationId}`);
      return op;
    },
    once<T>(key: string, send: () => Promise<T>): Promise<T> {
      let pending = shared.get(key) as Promise<T> | undefined;
      if (!pending) {
        pending = send();
        shared.set(key, pending);
      }
      return pending;
    },
  };
}
