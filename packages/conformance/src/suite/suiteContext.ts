import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { inject, test } from 'vitest';
import { TransportError } from '../http/exchange.js';
import { createTargetHttp, type TargetHttp } from '../http/targetHttp.js';
import { canCheckOn, findRule } from '../ruleCatalogue/index.js';
import { createResponseValidator, type ResponseValidator } from '../spec/responseValidator.js';
import { profileSecrets, redactText, type TargetProfile } from '../targetProfile/index.js';
import { describeExchange, type FailureReport, formatFailure } from './failureReport.js';
import { identityWith } from './identities.js';
import { planResources, type ResourcePlan } from './resourcePlan.js';
import { RuleViolation } from './ruleViolation.js';
import type { RunConfig } from './runConfig.js';

export interface Suite {
  readonly config: RunConfig;
  readonly profile: TargetProfile;
  readonly http: TargetHttp;
  readonly plan: ResourcePlan;
  readonly operations: readonly OperationEntry[];
  readonly validator: ResponseValidator;
  readonly secrets: readonly string[];
  /** The token of the broadest identity holding `scope` on the primary workspace. */
  fullToken(scope: string): string;
  operation(operationId: string): OperationEntry;
}

let current: Suite | undefined;

export function getSuite(): Suite {
  if (current) return current;
  const config = inject('conformanceRun');
  const profile = config.profile;
  const validator = createResponseValidator();
  const http = createTargetHttp({
    baseUrl: profile.baseUrl,
    requestTimeoutMs: profile.requestTimeoutMs ?? 10_000,
    deadlineAt: config.deadlineAt,
    ...(profile.rateLimitPerSecond ? { rateLimitPerSecond: profile.rateLimitPerSecond } : {}),
  });
  const suite: Suite = {
    config,
    profile,
    http,
    plan: planResources(profile),
    operations: validator.operations,
    validator,
    secrets: profileSecrets(profile),
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
  };
  current = suite;
  return suite;
}

/** Thrown by helpers that find the profile lacks what a check needs; becomes a skip with the reason. */
export class SkipSignal extends Error {}

/** The run was interrupted while a check was sending requests. */
class CheckInterrupted extends Error {
  constructor() {
    super('check stopped early: the run was interrupted');
    this.name = 'CheckInterrupted';
  }
}

export interface CheckOptions {
  /** Upper bound on runs for checks that create resources, whatever the depth. */
  readonly maxRuns?: number;
  /** Cases always run first (finite domains are covered whole, not sampled). */
  readonly examples?: readonly unknown[];
}

export interface RuleTestContext {
  readonly suite: Suite;
  readonly rule: string;
  skip(reason: string): never;
  /** Runs a fast-check property; on failure reports rule, seed, path, shrunk request/response and writes a replay file. */
  check<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    options?: CheckOptions,
  ): Promise<void>;
  /** Records what the run created, and whether it could be cleaned up. */
  recordCreated(kind: string, id: string, cleanup: string): void;
  requireMutations(): void;
}

/** Operations print as their operationId, so a counterexample reads like the request it stands for. */
function readable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readable);
  if (value && typeof value === 'object') {
    if ('operationId' in value && 'method' in value && 'path' in value)
      return `operation:${String((value as { operationId: unknown }).operationId)}`;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, readable(item)]));
  }
  return value;
}

function safeStringify(value: unknown, secrets: readonly string[]): string {
  let text: string;
  try {
    text = fc.stringify(readable(value));
  } catch {
    text = String(value);
  }
  return redactText(text, secrets);
}

/**
 * Declares one check of one rule. The title is prefixed with the rule ID (traceability), and the
 * check is skipped with its reason when the target cannot check the rule or the profile opts out.
 */
export function ruleTest(
  ruleId: string,
  title: string,
  body: (t: RuleTestContext) => Promise<void>,
  timeoutMs = 120_000,
): void {
  const rule = findRule(ruleId);
  if (!rule) throw new Error(`ruleTest: unknown rule ${ruleId}; add it to src/ruleCatalogue/rules.ts`);
  const fullTitle = `${ruleId} ${title}`;
  test(
    fullTitle,
    async (ctx) => {
      const suite = getSuite();
      const { config, profile } = suite;
      const skip = (reason: string): never => {
        ctx.skip(reason);
        throw new Error('unreachable');
      };
      if (!canCheckOn(rule, config.targetKind))
        skip(
          `${config.targetKind} cannot check this rule: ${rule.whyNotPrism ?? 'not supported by this target'}`,
        );
      const unsupported = profile.unsupportedRules?.find((u) => u.id === ruleId);
      if (unsupported) skip(`target does not claim this rule: ${unsupported.reason}`);
      const failures: FailureReport[] = [];
      const t: RuleTestContext = {
        suite,
        rule: ruleId,
        skip,
        requireMutations() {
          if (profile.mutations !== true) skip('profile does not allow mutations');
        },
        recordCreated(kind, id, cleanup) {
          if (config.targetKind === 'prism') return; // Prism keeps no state: nothing was created.
          mkdirSync(config.runDir, { recursive: true });
          appendFileSync(
            join(config.runDir, 'created.jsonl'),
            `${JSON.stringify({ rule: ruleId, kind, id, cleanup })}\n`,
          );
        },
        async check(arbitrary, predicate, options = {}) {
          const replay = config.replay?.testTitle === fullTitle ? config.replay : undefined;
          const examples = (options.examples ?? []).map((example) => [example] as [T0]);
          const numRuns =
            Math.max(1, Math.min(config.depth, options.maxRuns ?? Number.POSITIVE_INFINITY)) +
            examples.length;
          let transportFailure: TransportError | undefined;
          const guarded = async (value: T0): Promise<void> => {
            // Interrupted (Ctrl-C): stop sending at once, so the check's own cleanup (e.g. putting
            // a NAT rule back) runs before the run is torn down.
            if (ctx.signal.aborted) throw new CheckInterrupted();
            // Once the target gave no answer, shrinking would only wait for more timeouts.
            if (transportFailure) throw transportFailure;
            try {
              await predicate(value as never);
            } catch (error) {
              if (error instanceof TransportError) transportFailure = error;
              throw error;
            }
          };
          type T0 = unknown;
          const details = await fc.check(fc.asyncProperty(arbitrary as fc.Arbitrary<T0>, guarded), {
            numRuns,
            examples,
            seed: replay?.seed ?? config.seed,
            ...(replay ? { path: replay.path, endOnFailure: true } : {}),
          });
          if (ctx.signal.aborted) throw new CheckInterrupted();
          if (!details.failed) return;
          const counterexample = details.counterexample?.[0];
          suite.http.drain();
          let error: unknown = details.errorInstance;
          if (!transportFailure && details.counterexample) {
            try {
              await predicate(counterexample as never);
            } catch (reproduced) {
              error = reproduced;
            }
          }
          const exchanges = suite.http.drain();
          const exchange =
            error instanceof RuleViolation && error.exchange ? error.exchange : exchanges.at(-1);
          const message = redactText(error instanceof Error ? error.message : String(error), suite.secrets);
          const report: FailureReport = {
            rule: ruleId,
            test: fullTitle,
            seed: details.seed,
            path: details.counterexamplePath ?? undefined,
            counterexample: details.counterexample ? safeStringify(counterexample, suite.secrets) : undefined,
            message,
            ...describeExchange(exchange, suite.secrets),
          };
          const replayFile = join(config.runDir, 'replays', `${ruleId}-${failures.length + Date.now()}.json`);
          mkdirSync(join(config.runDir, 'replays'), { recursive: true });
          const withFile = { ...report, replayFile };
          writeFileSync(
            replayFile,
            `${JSON.stringify({ kind: 'conformance-replay', target: profile.name, depth: config.depth, ...withFile }, null, 2)}\n`,
          );
          failures.push(withFile);
          (ctx.task.meta as Record<string, unknown>).conformanceFailures = failures;
          throw new Error(formatFailure(withFile));
        },
      };
      try {
        await body(t);
      } catch (error) {
        if (error instanceof SkipSignal) skip(error.message);
        throw error;
      }
    },
    timeoutMs,
  );
}
