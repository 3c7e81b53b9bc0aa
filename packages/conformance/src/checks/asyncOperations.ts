import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { cloudVmBodies, cloudVmBody } from '../generate/cloudVmBody.js';
import { operationRequest } from '../generate/operationRequest.js';
import { identityWith } from '../session/identities.js';
import type { Exchange } from '../transport/exchange.js';
import {
  acceptanceIds,
  expectAcceptanceIds,
  expectAcceptanceRecord,
  expectFreshAcceptance,
  sharedIds,
} from './acceptanceRecord.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { retriesAfterLostAnswer } from './lostAnswerRetry.js';
import { expectStatus, is2xx, is4xx, isTokenRejection, RuleViolation } from './ruleViolation.js';
import {
  acceptedCreate,
  acceptedDelete,
  CLOUD_VM_NOT_CLEANED,
  consumedFixture,
  sentUntilSettled,
} from './sharedRequests.js';

// Made once (see generate/authorization.ts): a string arbitrary is costly to make, not to reuse.

const checks: Check[] = [];

checks.push(
  defineCheck('ASYNC-1', 'create cloud VM answers 202 with the four-field acceptance record', async (t) => {
    t.requireMutations();
    const session = t.session;
    await t.check(fc.constant('createCloudVm'), async () => {
      expectAcceptanceRecord(
        await acceptedCreate(session, (vmId) => t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED)),
      );
      return observed;
    });
  }),
);

checks.push(
  defineCheck(
    'ASYNC-1',
    'create cloud VM answers 202 in the secondary workspace too, when the preflight allows it there',
    async (t) => {
      // The first create check asks the primary workspace only: an operation broken in every
      // other workspace (ids numbered per workspace in a column unique across them, a shard
      // the service never reaches) would leave the checks that create there without evidence.
      t.requireMutations();
      const session = t.session;
      const { secondary } = session.profile.workspaces;
      const creator = identityWith(session.profile, 'vm.write', secondary);
      if (!creator) return t.skip(`no identity holds vm.write on workspace ${secondary}`);
      const reader = identityWith(session.profile, 'billing.read', secondary);
      if (!reader) return t.skip(`no identity holds billing.read on workspace ${secondary}`);
      await t.check(
        fc.constant(`a create in workspace ${secondary}`),
        async (): Promise<CaseVerdict> => {
          // The profile does not say the secondary workspace may create: its preflight does.
          const preflight = await session.http.send(
            operationRequest(session.operation('checkResourceEligibility'), session, 'positive', {
              workspaceId: secondary,
              token: reader.token,
            }),
          );
          const allowed = (preflight.response.json as { allowed?: unknown } | undefined)?.allowed;
          if (!is2xx(preflight.response.status) || allowed !== true)
            return notApplicable(
              `the preflight for workspace ${secondary} answered ${preflight.response.status}${allowed === false ? ' with allowed: false' : ''}: creates there are not shown to be allowed`,
            );
          // Each attempt is a new create (its own key): a retry under the first key could be
          // answered from an idempotency store that kept the error.
          const attempts = await sentUntilSettled(
            () =>
              session.http.send(
                operationRequest(session.operation('createCloudVm'), session, 'probe', {
                  workspaceId: secondary,
                  token: creator.token,
                }),
              ),
            (status) => status < 500,
            t.signal,
          );
          const exchange = attempts.at(-1) as Exchange;
          const { status } = exchange.response;
          if (status >= 500)
            throw new RuleViolation(
              `${attempts.length} creates of a cloud VM in workspace ${secondary}, each with its own X-Idempotency-Key, right after the preflight allowed creates there, answered ${attempts.map((a) => a.response.status).join(', ')}: the document answers a create with 202 Accepted and its acceptance record`,
              exchange,
            );
          if (isTokenRejection(status))
            throw new RuleViolation(
              `the create in workspace ${secondary} was refused with ${status} for identity "${creator.name}", which holds vm.write and whose workspace policy allows that workspace: the document answers a create with 202 Accepted`,
              exchange,
            );
          if (is4xx(status))
            return notApplicable(
              `the create in workspace ${secondary} was refused (${status}) after its preflight allowed it: limits and quotas are not shown`,
            );
          const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
          if (is2xx(status) && typeof vmId === 'string')
            t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
          expectAcceptanceRecord(exchange);
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

checks.push(
  defineCheck('ASYNC-1', 'delete GPU VM answers 202 with the four-field acceptance record', async (t) => {
    t.requireMutations();
    const session = t.session;
    await t.check(fc.constant('deleteGpuVm'), async () => {
      const { exchange } = await acceptedDelete(session);
      const consumed = consumedFixture(session, exchange, 'a GPU VM', 'resources.deletableGpuVmIds');
      if (consumed) return consumed;
      expectAcceptanceRecord(exchange);
      return observed;
    });
  }),
);

checks.push(
  defineCheck(
    'ASYNC-2',
    'a freshly accepted create or delete reports status accepted and a UTC submitted_at',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const sources = ['createCloudVm', ...(session.plan.deleteAccept ? ['deleteGpuVm'] : [])];
      await t.check(
        fc.constantFrom(...sources),
        async (source) => {
          const exchange =
            source === 'createCloudVm'
              ? await acceptedCreate(session, (vmId) =>
                  t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED),
                )
              : (await acceptedDelete(session)).exchange;
          const consumed =
            source === 'deleteGpuVm'
              ? consumedFixture(session, exchange, 'a GPU VM', 'resources.deletableGpuVmIds')
              : undefined;
          if (consumed) return consumed;
          expectFreshAcceptance(exchange, session.targetKind === 'prism' ? 'form-only' : 'generated-now');
          return observed;
        },
        { examples: sources },
      );
    },
  ),
);

checks.push(
  defineCheck('ASYNC-3', "the delete's acceptance record names the VM of the path", async (t) => {
    t.requireMutations();
    const session = t.session;
    await t.check(fc.constant('deleteGpuVm'), async () => {
      const { exchange, vmId } = await acceptedDelete(session);
      const consumed = consumedFixture(session, exchange, 'a GPU VM', 'resources.deletableGpuVmIds');
      if (consumed) return consumed;
      const record = expectAcceptanceRecord(exchange);
      if (record.vm_id !== vmId)
        throw new RuleViolation(
          `acceptance record vm_id is ${JSON.stringify(record.vm_id)}, expected ${JSON.stringify(vmId)}`,
          exchange,
        );
      return observed;
    });
  }),
);

checks.push(
  defineCheck('IDEM-1', 'rejects VM create and delete without X-Idempotency-Key (any 4xx)', async (t) => {
    t.requireMutations();
    const session = t.session;
    const ops = ['createCloudVm', ...(session.plan.deleteProbe ? ['deleteGpuVm'] : [])];
    await t.check(
      fc.constantFrom(...ops),
      async (operationId) => {
        const exchange = await session.http.send(
          operationRequest(session.operation(operationId), session, 'probe', { idempotencyKey: null }),
        );
        expectStatus(exchange, is4xx, 'a 4xx: X-Idempotency-Key is required');
        return observed;
      },
      { examples: ops, independent: true },
    );
  }),
);

/**
 * Two different keys a key store may take for one: longer than a narrow key column (a
 * VARCHAR(64)) and alike up to their last character, or alike but for letter case (a key column
 * under a case-insensitive collation, MySQL's default).
 */
const DIFFERENT_KEYS = {
  'sharing a long beginning': () => {
    const shared = `conformance-${'k'.repeat(64)}-${randomUUID()}-`;
    return {
      keys: [`${shared}1`, `${shared}2`] as const,
      how: `differ only in character ${shared.length + 1}`,
      misread: 'the second key was read as the first (a key cut short)',
    };
  },
  'differing in letter case': () => {
    const key = `Conformance-${randomUUID().toUpperCase()}`;
    return {
      keys: [key, key.toLowerCase()] as const,
      how: 'differ only in letter case',
      misread: 'the second key was read as the first (keys compared without regard to case)',
    };
  },
} as const;

checks.push(
  defineCheck(
    'IDEM-2',
    'creates with different keys are different creates, never one replayed for the other: keys sharing a long beginning, keys differing in letter case',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const op = session.operation('createCloudVm');
      const kinds = Object.keys(DIFFERENT_KEYS) as (keyof typeof DIFFERENT_KEYS)[];
      await t.check(
        fc.constantFrom(...kinds),
        async (kind) => {
          // Two creates under keys a store may confuse: one that does takes the second for a retry
          // of the first. Each names its own VM (a target may refuse a second VM of the same name).
          const { keys, how, misread } = DIFFERENT_KEYS[kind]();
          const [firstKey, secondKey] = keys;
          const create = (idempotencyKey: string) =>
            session.http.send(operationRequest(op, session, 'probe', { idempotencyKey }));
          const first = await create(firstKey);
          if (first.response.status >= 500)
            return notApplicable(
              `the first create answered ${first.response.status}: nothing to compare with`,
            );
          if (is4xx(first.response.status))
            return notApplicable(
              `a create with the X-Idempotency-Key ${JSON.stringify(firstKey)} was refused (${first.response.status}): which keys a target accepts is not shown`,
            );
          const one = expectAcceptanceIds(first);
          t.recordCreated('cloud VM', one.vmId, CLOUD_VM_NOT_CLEANED);
          const second = await create(secondKey);
          if (kind === 'differing in letter case' && is4xx(second.response.status)) {
            // Refused as a reuse of the first key with another body, or a lower-case key refused
            // for its form: a fresh lower-case key tells which.
            const fresh = await create(`conformance-${randomUUID()}`);
            if (!is2xx(fresh.response.status))
              return notApplicable(
                `a create with the X-Idempotency-Key ${JSON.stringify(secondKey)} was refused (${second.response.status}), and so was one with another lower-case key (${fresh.response.status}): which keys a target accepts is not shown`,
              );
            t.recordCreated('cloud VM', expectAcceptanceIds(fresh).vmId, CLOUD_VM_NOT_CLEANED);
            throw new RuleViolation(
              `a create with the X-Idempotency-Key ${JSON.stringify(secondKey)} was refused (${second.response.status}) after one with ${JSON.stringify(firstKey)} was accepted, while a create with another lower-case key was accepted (${fresh.response.status}): the target read the second key as the first (keys compared without regard to case) and refused the second create as a reuse of it with another request`,
              second,
            );
          }
          const other = expectAcceptanceIds(second);
          if (other.vmId !== one.vmId) t.recordCreated('cloud VM', other.vmId, CLOUD_VM_NOT_CLEANED);
          const shared = sharedIds(one, other);
          if (shared.length > 0)
            throw new RuleViolation(
              `two creates whose X-Idempotency-Keys ${how} (${JSON.stringify(firstKey)}, then ${JSON.stringify(secondKey)}) were answered with the same ${shared.join(' and ')}: ${misread}, so the second create never started`,
              second,
            );
          return observed;
        },
        { examples: kinds, exhaustive: true, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'IDEM-2',
    'a create retried with the same key after a lost answer yields the same operation',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const op = session.operation('createCloudVm');
      await t.check(
        cloudVmBodies(session.profile),
        async (vm) => {
          const key = randomUUID();
          const body = JSON.stringify(vm);
          const request = operationRequest(op, session, 'probe', { idempotencyKey: key, body });
          // The first answer is treated as lost in the network: the caller never saw it and retries.
          const lost = await session.http.send(request);
          // A create refused for a moment (a billing decision that could not be made, 503) started
          // nothing to retry: no evidence either way.
          if (lost.response.status >= 500)
            return notApplicable(`the create answered ${lost.response.status}: no operation to retry`);
          const first = expectAcceptanceRecord(lost);
          t.recordCreated('cloud VM', String(first.vm_id), CLOUD_VM_NOT_CLEANED);
          for (const [n, retried] of (await retriesAfterLostAnswer(session, request)).entries()) {
            const second = expectAcceptanceRecord(retried);
            if (second.vm_id !== first.vm_id)
              t.recordCreated('cloud VM', String(second.vm_id), CLOUD_VM_NOT_CLEANED);
            if (second.operation_id !== first.operation_id || second.vm_id !== first.vm_id) {
              throw new RuleViolation(
                `retry ${n + 1} (on a new connection) with the same X-Idempotency-Key gave operation ${JSON.stringify(second.operation_id)} for VM ${JSON.stringify(second.vm_id)}; the first attempt was ${JSON.stringify(first.operation_id)} for VM ${JSON.stringify(first.vm_id)} (a second create)`,
                retried,
              );
            }
          }
          return observed;
        },
        { maxRuns: 3 },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'IDEM-2',
    'a delete retried with the same key after a lost answer yields the same operation',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const vmId = session.plan.deleteReplay;
      if (!vmId) return t.skip('profile lists fewer than 2 resources.deletableGpuVmIds');
      const key = randomUUID();
      await t.check(fc.constant(vmId), async (id) => {
        const request = operationRequest(session.operation('deleteGpuVm'), session, 'probe', {
          pathIds: { vm_id: id },
          idempotencyKey: key,
        });
        const answered = await session.http.send(request);
        const consumed = consumedFixture(session, answered, 'a GPU VM', 'resources.deletableGpuVmIds');
        if (consumed) return consumed;
        const first = expectAcceptanceRecord(answered);
        for (const [n, retried] of (await retriesAfterLostAnswer(session, request)).entries()) {
          const second = expectAcceptanceRecord(retried);
          if (second.operation_id !== first.operation_id) {
            throw new RuleViolation(
              `delete retried (retry ${n + 1}, on a new connection) with the same key gave operation ${JSON.stringify(second.operation_id)}, first was ${JSON.stringify(first.operation_id)}`,
              retried,
            );
          }
        }
        return observed;
      });
    },
  ),
);

checks.push(
  defineCheck(
    'ASYNC-4',
    'creates in two workspaces, each with its own key, are two operations for two VMs',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const op = session.operation('createCloudVm');
      const { primary, secondary } = session.profile.workspaces;
      const elsewhere = identityWith(session.profile, op.scope, secondary);
      if (!elsewhere) return t.skip(`no identity holds ${op.scope} on workspace ${secondary}`);
      await t.check(
        fc.constant('a create in each workspace'),
        async (): Promise<CaseVerdict> => {
          // One after the other, so this is no race (CONC-2's): ids numbered per workspace collide.
          const create = async (workspace: string, token?: string) => {
            const exchange = await session.http.send(
              operationRequest(op, session, 'probe', { workspaceId: workspace, ...(token ? { token } : {}) }),
            );
            const ids = acceptanceIds(exchange);
            if (ids) t.recordCreated('cloud VM', ids.vmId, CLOUD_VM_NOT_CLEANED);
            return { exchange, ids };
          };
          const unaccepted = (workspace: string, exchange: Exchange) =>
            notApplicable(
              `the create in workspace ${workspace} answered ${exchange.response.status} without an acceptance record`,
            );
          const first = await create(primary);
          if (!first.ids) return unaccepted(primary, first.exchange);
          const second = await create(secondary, elsewhere.token);
          if (!second.ids) return unaccepted(secondary, second.exchange);
          const shared = sharedIds(first.ids, second.ids);
          if (shared.length > 0)
            throw new RuleViolation(
              `a create in workspace ${primary} and then one in workspace ${secondary}, each with its own X-Idempotency-Key, were answered with the same ${shared.join(' and ')}: two operations, one identifier`,
              second.exchange,
            );
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'ASYNC-4',
    'two creates with the same body, each with its own key, are two operations, or the second is refused',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const op = session.operation('createCloudVm');
      await t.check(
        fc.constant('the same body twice'),
        async (): Promise<CaseVerdict> => {
          // A store that remembers answers by the request instead of its key answers the second
          // with the first's operation. A target may refuse a second VM of the same name: a
          // refusal keeps the operations apart too.
          const body = JSON.stringify(cloudVmBody(session.profile));
          const send = () => session.http.send(operationRequest(op, session, 'probe', { body }));
          const first = await send();
          const one = acceptanceIds(first);
          if (!one)
            return notApplicable(`the create answered ${first.response.status} without an acceptance record`);
          t.recordCreated('cloud VM', one.vmId, CLOUD_VM_NOT_CLEANED);
          const second = await send();
          const two = acceptanceIds(second);
          if (!two) return observed;
          if (two.vmId !== one.vmId) t.recordCreated('cloud VM', two.vmId, CLOUD_VM_NOT_CLEANED);
          const shared = sharedIds(one, two);
          if (shared.length > 0)
            throw new RuleViolation(
              `a second create with the same body and an X-Idempotency-Key of its own was answered with the first's ${shared.join(' and ')}: answers are kept by the request, not by the key, so the second create never started`,
              second,
            );
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

/** The asyncOperations family's checks, in the order they run. */
export const asyncOperationsChecks: readonly Check[] = checks;
