import { ApiError, BillingBlockedError, createCloudClient } from '@cloud-api/client';
import fc from 'fast-check';
import { cloudVmBodies, cloudVmBody } from '../generate/cloudVmBody.js';
import type { Session } from '../session/session.js';
import { notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { createRecordingFetch, type DecisionOverride, type RecordedRequest } from './recordingFetch.js';
import { RuleViolation } from './ruleViolation.js';
import { CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

function clientFor(session: Session, options: { decision?: DecisionOverride; workspaceId?: string } = {}) {
  const base = new URL(session.profile.baseUrl);
  const recorder = createRecordingFetch({
    origin: base.origin,
    basePath: base.pathname.replace(/\/$/, ''),
    forwardCreates: session.profile.mutations === true,
    forward: (request) => session.http.forward(request),
    ...(options.decision ? { decision: options.decision } : {}),
  });
  const client = createCloudClient({
    token: session.fullToken('vm.write'),
    workspaceId: options.workspaceId ?? session.profile.workspaces.primary,
    environments: { [session.profile.environment]: session.profile.baseUrl },
    fetch: recorder.fetch,
    retry: { attempts: 1 },
    billing: { skuCodeFor: () => session.profile.billing.skuCode },
  } as Parameters<typeof createCloudClient>[0]);
  return {
    client,
    log: recorder.log,
    decisions: recorder.decisions,
    /**
     * The client turns a target that gave no answer into "billing unavailable"; for the session that
     * is no verdict, so the transport failure is raised again and the check ends incomplete.
     */
    throwIfTargetSilent(): void {
      const failure = recorder.transportFailure();
      if (failure) throw failure;
    },
    /**
     * Creates through the client; when the target's own decision refused it, says why instead
     * (nothing to check on the create path), and raises anything else.
     */
    async createOrRefusal(
      body: Parameters<typeof client.createCloudVm>[0],
    ): Promise<{ vm_id: string } | { refusedByTarget: string }> {
      try {
        const accepted: unknown = await client.createCloudVm(body);
        // The client passes on what the target answered; no record there is ASYNC-1's to judge.
        if (typeof (accepted as { vm_id?: unknown } | null)?.vm_id !== 'string')
          return {
            refusedByTarget: `the target answered the create with ${JSON.stringify(accepted)?.slice(0, 80)}, not an acceptance record, so what the client did next cannot be seen`,
          };
        return accepted as { vm_id: string };
      } catch (error) {
        this.throwIfTargetSilent();
        if (!(error instanceof BillingBlockedError || error instanceof ApiError)) throw error;
        // Refused after the target's own preflight allowed it (a redirect, a gateway refusal, a 5xx):
        // the create path the client rules judge was never reached. ASYNC-1 judges the answer.
        return {
          refusedByTarget:
            this.notAllowedByTarget() ??
            `the target refused the create after its own preflight allowed it (${error.message}), so what the client did next cannot be seen`,
        };
      }
    },
    /** Why the target's own decisions leave nothing to check on the create path, if they do. */
    notAllowedByTarget(): string | undefined {
      const refused = recorder.decisions.find((decision) => !decision.allowed);
      return refused
        ? `the target's own preflight answered ${refused.status} without allowed: true, so the client rightly did not create`
        : undefined;
    },
  };
}

function describeLog(log: readonly RecordedRequest[]): string {
  return (
    log
      .map((r) => `${r.method} ${r.url.pathname}${r.url.search}${r.forwarded ? '' : ' (not forwarded)'}`)
      .join(' → ') || '(nothing sent)'
  );
}

function recordCreate(
  t: { recordCreated(kind: string, id: string, cleanup: string): void },
  session: Session,
  vmId: string,
): void {
  if (session.profile.mutations === true) t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'BILL-1',
    'the client calls the preflight for the same workspace before a create and proceeds only on allowed: true',
    async (t) => {
      const session = t.session;
      const { primary, billingDenied } = session.profile.workspaces;
      const workspaces = [primary, ...(billingDenied ? [billingDenied] : [])];
      await t.check(
        fc.tuple(fc.constantFrom(...workspaces), cloudVmBodies(session.profile)),
        async ([workspaceId, body]) => {
          const probe = clientFor(session, { workspaceId });
          const { client, log } = probe;
          let created: { vm_id: string } | undefined;
          let blocked: unknown;
          try {
            created = await client.createCloudVm(body);
          } catch (error) {
            blocked = error;
          }
          probe.throwIfTargetSilent();
          const preflightIndex = log.findIndex((r) => r.kind === 'preflight');
          const createIndex = log.findIndex((r) => r.kind === 'create');
          if (preflightIndex < 0)
            throw new RuleViolation(
              `the client sent no billing preflight before the create: ${describeLog(log)}`,
            );
          if (log[preflightIndex]?.url.searchParams.get('workspace_id') !== workspaceId) {
            throw new RuleViolation(
              `the preflight asked about workspace ${log[preflightIndex]?.url.searchParams.get('workspace_id')}, the create is for ${workspaceId}`,
            );
          }
          if (createIndex >= 0 && createIndex < preflightIndex)
            throw new RuleViolation(`the create went before the preflight: ${describeLog(log)}`);
          // What the client must do follows the target's own decision, whatever the workspace.
          const refusedByTarget = probe.notAllowedByTarget();
          if (refusedByTarget) {
            if (createIndex >= 0)
              throw new RuleViolation(
                `the client sent the create although the decision for workspace ${workspaceId} was not allowed: ${describeLog(log)}`,
              );
            if (!(blocked instanceof BillingBlockedError))
              throw new RuleViolation(
                `expected BillingBlockedError for a decision without allowed: true, got ${blocked instanceof Error ? blocked.name : 'success'}`,
              );
            // In an allowed workspace the target's refusal leaves "proceeds when allowed" unseen.
            if (workspaceId !== billingDenied) return notApplicable(refusedByTarget);
          } else {
            // The target allowed a create in its billing-denied workspace: BILL-7 judges the target.
            if (workspaceId === billingDenied)
              return notApplicable(`the target allowed a create in billing-denied workspace ${workspaceId}`);
            if (blocked)
              throw new RuleViolation(
                `the create failed: ${(blocked as Error).message} (${describeLog(log)})`,
              );
            if (createIndex < 0)
              throw new RuleViolation(
                `the client never sent the create after an allowed decision: ${describeLog(log)}`,
              );
            if (created && log[createIndex]?.forwarded) recordCreate(t, session, created.vm_id);
          }
          return observed;
        },
        {
          maxRuns: 1,
          examples: workspaces.map((ws) => [ws, cloudVmBody(session.profile)]),
        },
      );
    },
  ),
);

const overrides: DecisionOverride[] = [
  { kind: 'denied' },
  { kind: 'malformed', body: '{"allowed":"true"}' },
  { kind: 'malformed', body: '{}' },
  { kind: 'malformed', body: 'not json' },
  { kind: 'unavailable-status', status: 503 },
  { kind: 'unavailable-status', status: 500 },
  { kind: 'unavailable-network' },
];

checks.push(
  defineCheck(
    'BILL-2',
    'a denied, malformed or unavailable decision blocks the create in the client; it is never sent',
    async (t) => {
      const session = t.session;
      await t.check(
        fc.tuple(fc.constantFrom(...overrides), cloudVmBodies(session.profile)),
        async ([decision, body]) => {
          const probe = clientFor(session, { decision });
          const { client, log } = probe;
          let outcome: unknown;
          try {
            outcome = await client.createCloudVm(body);
          } catch (error) {
            outcome = error;
          }
          // The decision is altered on the target's answer; without an answer it was never altered.
          probe.throwIfTargetSilent();
          if (log.some((r) => r.kind === 'create'))
            throw new RuleViolation(
              `the client sent the create after a ${decision.kind} decision: ${describeLog(log)}`,
            );
          if (!(outcome instanceof BillingBlockedError)) {
            throw new RuleViolation(
              `a ${decision.kind} decision should raise BillingBlockedError, got ${outcome instanceof Error ? `${outcome.name}: ${outcome.message}` : 'a success'}`,
            );
          }
          return observed;
        },
        {
          examples: overrides.map((o) => [o, cloudVmBody(session.profile)]),
          // Each case is one client's preflight and the create it must withhold: nothing is shared.
          independent: true,
        },
      );
    },
  ),
);

checks.push(
  defineCheck('BILL-3', 'the client makes a fresh preflight immediately before each create', async (t) => {
    const session = t.session;
    await t.check(
      fc.array(cloudVmBodies(session.profile), { minLength: 2, maxLength: 2 }),
      async (bodies) => {
        const probe = clientFor(session);
        const { log } = probe;
        for (const body of bodies) {
          const accepted = await probe.createOrRefusal(body);
          if ('refusedByTarget' in accepted) return notApplicable(accepted.refusedByTarget);
          if (log.at(-1)?.forwarded) recordCreate(t, session, accepted.vm_id);
        }
        const sequence = log.filter((r) => r.kind !== 'other').map((r) => r.kind);
        const expected = bodies.flatMap(() => ['preflight', 'create']);
        if (sequence.join(',') !== expected.join(',')) {
          throw new RuleViolation(
            `expected a preflight right before each of ${bodies.length} creates, got ${describeLog(log)}`,
          );
        }
        for (let i = 1; i < log.length; i++) {
          if (log[i]?.kind === 'create' && log[i - 1]?.kind !== 'preflight')
            throw new RuleViolation(
              `a request came between the preflight and the create: ${describeLog(log)}`,
            );
        }
        return observed;
      },
      { maxRuns: 1 },
    );
  }),
);

const BILLING_STATE = /wallet|balance|credit|billing|allowed|decision|funds/i;

checks.push(
  defineCheck(
    'BILL-4',
    'the client sends product endpoints no wallet balance, credit limit or other billing state',
    async (t) => {
      const session = t.session;
      await t.check(
        cloudVmBodies(session.profile),
        async (body) => {
          const probe = clientFor(session);
          const { log } = probe;
          const accepted = await probe.createOrRefusal(body);
          if ('refusedByTarget' in accepted) return notApplicable(accepted.refusedByTarget);
          const create = log.find((r) => r.kind === 'create');
          if (!create) throw new RuleViolation(`the client sent no create: ${describeLog(log)}`);
          if (create.forwarded) recordCreate(t, session, accepted.vm_id);
          const sent = JSON.parse(create.body) as Record<string, unknown>;
          const added = Object.keys(sent).filter((key) => !(key in body));
          if (added.length > 0 || JSON.stringify(sent) !== JSON.stringify(body)) {
            throw new RuleViolation(
              `the create body differs from what the caller gave: added ${added.join(', ') || 'nothing'}, sent ${create.body}`,
            );
          }
          const suspicious = [
            ...[...create.url.searchParams.keys()].filter((key) => key !== 'workspace_id'),
            ...Object.keys(create.headers).filter((name) => BILLING_STATE.test(name)),
          ];
          if (suspicious.length > 0)
            throw new RuleViolation(
              `the create carried extra parameters or headers: ${suspicious.join(', ')}`,
            );
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

/** The billingClient family's checks, in the order they run. */
export const billingClientChecks: readonly Check[] = checks;
