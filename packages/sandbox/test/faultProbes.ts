import { connect } from 'node:net';
import type { FaultId } from '../src/faultCatalogue.js';
import {
  type Answer,
  type Harness,
  isUtcTimestamp,
  paths,
  responseSchemaValidator,
} from './sandboxHarness.js';

/**
 * For each fault, one observation on a sandbox, and what it looks like on a correct sandbox
 * and on the faulty one. A fault whose probe cannot tell the two apart is not a fault.
 */
export interface FaultProbe {
  readonly observe: (h: Harness) => Promise<unknown>;
  readonly correct: (observation: unknown) => boolean;
  readonly faulty: (observation: unknown) => boolean;
}

/**
 * A fault that needs requests in flight together (or inside one clock second) shows only when
 * they overlap, which a loaded machine does not promise: its observation is repeated on a reset
 * sandbox until the fault shows, at most RACE_ATTEMPTS times. A correct sandbox never shows it,
 * so its observation is judged as before.
 */
const RACE_ATTEMPTS = 8;
function raced(probe: FaultProbe): FaultProbe {
  return {
    ...probe,
    observe: async (h) => {
      let observation = await probe.observe(h);
      for (let attempt = 1; attempt < RACE_ATTEMPTS && !probe.faulty(observation); attempt++) {
        h.sandbox.reset();
        observation = await probe.observe(h);
      }
      return observation;
    },
  };
}

const is4xx = (a: unknown) => (a as Answer).status >= 400 && (a as Answer).status < 500;
const status = (code: number) => (a: unknown) => (a as Answer).status === code;
const jsonObject = (a: unknown) => (a as Answer).json as Record<string, unknown>;

const resources = (h: Harness) => h.profile.resources ?? {};
const gpuVm = (h: Harness) => resources(h).gpuVmIds?.[0] ?? '';
const deletableVm = (h: Harness) => resources(h).deletableGpuVmIds?.[0] ?? '';
const restoreId = (h: Harness) => resources(h).restoreIds?.[0] ?? '';
const reservedIp = (h: Harness) => resources(h).releasableReservedIpIds?.[0] ?? '';
const natRulePath = (h: Harness) => {
  const rule = resources(h).natRules?.[0];
  return paths.natRule(rule?.vpcId ?? '', rule?.natGatewayId ?? '', rule?.ruleId ?? '');
};
const createBody = { name: 'web-01', plan_id: 'plan-std-2c-4g' };

const listBuckets = (options: Parameters<Harness['call']>[2]) => (h: Harness) =>
  h.call('GET', paths.buckets, options);

const scopeProbe = (send: (h: Harness, as: string) => Promise<Answer>, lacking: string): FaultProbe => ({
  observe: (h) => send(h, lacking),
  correct: status(403),
  faulty: (a) => (a as Answer).status >= 200 && (a as Answer).status < 300,
});

const createVm = (h: Harness, extra: Parameters<Harness['call']>[2] = {}) =>
  h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: `key-${Math.random()}`, ...extra });

const acceptance = (a: unknown) => jsonObject(a);

const primary = (h: Harness) => h.profile.workspaces.primary;
const secondary = (h: Harness) => h.profile.workspaces.secondary;
/** The statuses of list buckets for each workspace_id value (null: none sent). */
const bucketStatuses = (values: (string | null)[]) => async (h: Harness) => {
  const statuses: number[] = [];
  for (const workspace of values) statuses.push((await h.call('GET', paths.buckets, { workspace })).status);
  return statuses;
};
const allStatuses = (check: (s: number) => boolean) => (o: unknown) =>
  (o as number[]).length > 0 && (o as number[]).every(check);
const in4xx = (s: number) => s >= 400 && s < 500;
/** Forms of the primary workspace's id, from its value at run time. */
const formsOfPrimary = (forms: (id: string) => string[]) => (h: Harness) =>
  bucketStatuses(forms(primary(h)))(h);
/** One request through the secondary workspace for a resource of the primary one. */
const throughSecondary =
  (method: string, path: (h: Harness) => string, extra: Parameters<Harness['call']>[2] = {}) =>
  (h: Harness) =>
    h.call(method, path(h), { workspace: secondary(h), ...extra });
const rawBody = (path: string, body: string) => (h: Harness) => h.call('POST', path, { body });

export const faultProbes: Record<FaultId, FaultProbe> = {
  'accept-missing-workspace-id': {
    observe: listBuckets({ workspace: null }),
    correct: is4xx,
    faulty: status(200),
  },
  'accept-zero-workspace-id': {
    observe: listBuckets({ workspace: '0' }),
    correct: is4xx,
    faulty: status(200),
  },
  'accept-negative-workspace-id': {
    observe: listBuckets({ workspace: '-1042' }),
    correct: is4xx,
    faulty: status(200),
  },
  'accept-non-numeric-workspace-id': {
    observe: listBuckets({ workspace: 'abc' }),
    correct: is4xx,
    faulty: status(200),
  },
  'accept-missing-authorization': {
    observe: listBuckets({ authorization: null }),
    correct: status(401),
    faulty: status(200),
  },
  'accept-basic-auth': {
    // Any Basic credential, and one carrying a token that lacks the scope (still scope-checked).
    observe: async (h) => [
      (
        await h.call('GET', paths.buckets, {
          authorization: `Basic ${Buffer.from('user:password').toString('base64')}`,
        })
      ).status,
      (
        await h.call('GET', paths.buckets, {
          authorization: `Basic ${Buffer.from(`user:${h.token('noObjectStorageRead')}`).toString('base64')}`,
        })
      ).status,
    ],
    correct: (o) => JSON.stringify(o) === '[401,401]',
    faulty: (o) => JSON.stringify(o) === '[200,403]',
  },
  'accept-raw-token': {
    observe: (h) => h.call('GET', paths.buckets, { authorization: h.token('full') }),
    correct: status(401),
    faulty: status(200),
  },
  'accept-unknown-token': {
    observe: listBuckets({ authorization: 'Bearer svc_dev_key_not_a_real_token' }),
    correct: status(401),
    faulty: status(200),
  },
  'token-lookup-case-insensitive': {
    observe: (h) => {
      const token = h.token('full');
      const prefix = 'svc_dev_key_';
      return h.call('GET', paths.buckets, {
        authorization: `Bearer ${prefix}${token.slice(prefix.length).toUpperCase()}`,
      });
    },
    correct: status(401),
    faulty: status(200),
  },
  'token-lookup-truncated': {
    observe: (h) =>
      h.call('GET', paths.buckets, { authorization: `Bearer ${h.token('full').slice(0, -2)}zz` }),
    correct: status(401),
    faulty: status(200),
  },
  'accept-revoked-token': {
    observe: (h) => h.call('GET', paths.buckets, { authorization: `Bearer ${h.profile.revokedToken}` }),
    correct: status(401),
    faulty: status(200),
  },
  'accept-other-environment-token': {
    observe: (h) =>
      h.call('GET', paths.buckets, { authorization: `Bearer ${h.profile.otherEnvironmentToken}` }),
    correct: status(401),
    faulty: status(200),
  },
  'ignore-scope-check-resource-eligibility': scopeProbe(
    (h, as) => h.call('POST', paths.eligibility, { json: { sku_code: h.profile.billing.skuCode }, as }),
    'noBillingRead',
  ),
  'ignore-scope-list-buckets': scopeProbe(
    (h, as) => h.call('GET', paths.buckets, { as }),
    'noObjectStorageRead',
  ),
  'ignore-scope-create-cloud-vm': scopeProbe((h, as) => createVm(h, { as }), 'noVmWrite'),
  'ignore-scope-enable-gpu-vm-backups': scopeProbe(
    (h, as) => h.call('POST', paths.enableBackups(gpuVm(h)), { json: {}, as }),
    'noVmWrite',
  ),
  'ignore-scope-delete-gpu-vm': scopeProbe(
    (h, as) => h.call('DELETE', paths.gpuVm(deletableVm(h)), { idempotencyKey: 'k', as }),
    'noVmWrite',
  ),
  'ignore-scope-get-cloud-vm-snapshot-restore': scopeProbe(
    (h, as) => h.call('GET', paths.restore(restoreId(h)), { as }),
    'noVmRead',
  ),
  'ignore-scope-update-nat-port-forwarding-rule': scopeProbe(
    (h, as) => h.call('PATCH', natRulePath(h), { json: { note: 'x' }, as }),
    'noNetworkWrite',
  ),
  'ignore-scope-release-reserved-ip': scopeProbe(
    (h, as) => h.call('DELETE', paths.reservedIp(reservedIp(h)), { as }),
    'noNetworkWrite',
  ),
  'scope-write-implies-read': {
    // A token with vm.write and without vm.read reads a restore (vm.read).
    observe: (h) => h.call('GET', paths.restore(restoreId(h)), { as: 'noVmRead' }),
    correct: status(403),
    faulty: status(200),
  },
  'preflight-requires-vm-write': {
    observe: async (h) => [
      (await h.call('POST', paths.eligibility, { json: { sku_code: 'x' }, as: 'noVmWrite' })).status,
      (await h.call('POST', paths.eligibility, { json: { sku_code: 'x' }, as: 'noBillingRead' })).status,
    ],
    correct: (o) => JSON.stringify(o) === '[200,403]',
    faulty: (o) => JSON.stringify(o) === '[403,200]',
  },
  'create-requires-billing-read': {
    observe: (h) => createVm(h, { as: 'noBillingRead' }),
    correct: status(202),
    faulty: status(403),
  },
  'ignore-workspace-policy': {
    observe: (h) =>
      h.call('GET', paths.buckets, { as: 'primaryOnly', workspace: h.profile.workspaces.secondary }),
    correct: status(403),
    faulty: status(200),
  },
  'entire-organization-limited-to-primary': {
    observe: (h) => h.call('GET', paths.buckets, { workspace: h.profile.workspaces.secondary }),
    correct: status(200),
    faulty: status(403),
  },
  'create-answers-201': { observe: (h) => createVm(h), correct: status(202), faulty: status(201) },
  'acceptance-missing-submitted-at': {
    observe: (h) => createVm(h),
    correct: (a) => isUtcTimestamp(acceptance(a).submitted_at),
    faulty: (a) => status(202)(a) && !('submitted_at' in acceptance(a)),
  },
  'acceptance-status-queued': {
    observe: (h) => createVm(h),
    correct: (a) => acceptance(a).status === 'accepted',
    faulty: (a) => acceptance(a).status === 'queued',
  },
  'acceptance-status-by-rollout': {
    // The primary workspace (1042) and the secondary (1043, odd: where the rollout reached).
    observe: async (h) => [
      acceptance(await createVm(h)).status,
      acceptance(await createVm(h, { workspace: secondary(h) })).status,
    ],
    correct: (o) => JSON.stringify(o) === '["accepted","accepted"]',
    faulty: (o) => JSON.stringify(o) === '["accepted","pending"]',
  },
  'acceptance-submitted-at-not-utc': {
    observe: (h) => createVm(h),
    correct: (a) => isUtcTimestamp(acceptance(a).submitted_at),
    faulty: (a) =>
      typeof acceptance(a).submitted_at === 'string' && !isUtcTimestamp(acceptance(a).submitted_at),
  },
  'timestamp-space-separator': {
    observe: (h) => createVm(h),
    correct: (a) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(String(acceptance(a).submitted_at)),
    faulty: (a) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(String(acceptance(a).submitted_at)),
  },
  'delete-acceptance-other-vm-id': {
    observe: async (h) => ({
      vmId: deletableVm(h),
      answer: await h.call('DELETE', paths.gpuVm(deletableVm(h)), { idempotencyKey: 'k' }),
    }),
    correct: (o) => jsonObject((o as { answer: Answer }).answer).vm_id === (o as { vmId: string }).vmId,
    faulty: (o) =>
      status(202)((o as { answer: Answer }).answer) &&
      jsonObject((o as { answer: Answer }).answer).vm_id !== (o as { vmId: string }).vmId,
  },
  'idempotency-key-optional': {
    observe: (h) => h.call('POST', paths.cloudVms, { json: createBody }),
    correct: is4xx,
    faulty: status(202),
  },
  'ignore-idempotency-key': {
    observe: async (h) => {
      const firstAnswer = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'same' });
      const secondAnswer = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'same' });
      return { same: firstAnswer.text === secondAnswer.text, vms: h.sandbox.state.cloudVms.size };
    },
    correct: (o) => (o as { same: boolean }).same && (o as { vms: number }).vms === 1,
    faulty: (o) => !(o as { same: boolean }).same && (o as { vms: number }).vms === 2,
  },
  'bearer-token-from-cookie': {
    observe: (h) =>
      h.call('GET', paths.buckets, {
        authorization: null,
        headers: { cookie: `theme=dark; access_token=${h.token('full')}` },
      }),
    correct: status(401),
    faulty: status(200),
  },
  'revocation-list-reload-gap': {
    observe: async (h) => {
      const statuses = new Set<number>();
      const started = Date.now();
      while (Date.now() - started < 1_200) {
        statuses.add(
          (await h.call('GET', paths.buckets, { authorization: `Bearer ${h.profile.revokedToken}` })).status,
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return [...statuses].sort();
    },
    correct: (o) => !(o as number[]).includes(200),
    faulty: (o) => (o as number[]).includes(200) && (o as number[]).some((s) => s === 401 || s === 403),
  },
  'revocation-cached-per-instance': {
    // Two reads, each on a connection of its own: a balancer hands two in a row to both instances.
    observe: async (h) => {
      const read = async () =>
        (
          await h.call('GET', paths.buckets, {
            authorization: `Bearer ${h.profile.revokedToken}`,
            newConnection: true,
          })
        ).status;
      return [await read(), await read()].sort();
    },
    correct: (o) => !(o as number[]).includes(200),
    faulty: (o) => (o as number[]).includes(200) && (o as number[]).some((s) => s === 401 || s === 403),
  },
  'delete-state-check-then-act': raced({
    observe: async (h) => {
      const path = paths.gpuVm(deletableVm(h));
      const answers = await Promise.all(
        ['one', 'two'].map((key) => h.call('DELETE', path, { idempotencyKey: `delete-${key}` })),
      );
      return answers.map((a) => a.status).sort();
    },
    correct: (o) => JSON.stringify(o) === '[202,409]',
    faulty: (o) => JSON.stringify(o) === '[202,202]',
  }),
  'workspace-id-read-from-body': {
    // The preflight in the primary workspace, with the denied workspace named in the body.
    observe: async (h) =>
      (
        (
          await h.call('POST', paths.eligibility, {
            json: {
              sku_code: h.profile.billing?.skuCode ?? 'x',
              workspace_id: h.profile.workspaces.billingDenied,
            },
          })
        ).json as { allowed?: unknown }
      ).allowed,
    correct: (o) => o === true,
    faulty: (o) => o === false,
  },
  'backup-enable-on-deleting-vm': {
    observe: async (h) => {
      const vmId = deletableVm(h);
      await h.call('DELETE', paths.gpuVm(vmId), { idempotencyKey: 'delete-then-enable' });
      return (await h.call('POST', paths.enableBackups(vmId), { json: {} })).status;
    },
    correct: (o) => o === 409,
    faulty: (o) => o === 200,
  },
  'delete-lock-held-423': {
    observe: async (h) => {
      const path = paths.gpuVm(deletableVm(h));
      const first = await h.call('DELETE', path, { idempotencyKey: 'delete-one' });
      const second = await h.call('DELETE', path, { idempotencyKey: 'delete-two' });
      return [first.status, second.status];
    },
    correct: (o) => JSON.stringify(o) === '[202,409]',
    faulty: (o) => JSON.stringify(o) === '[202,423]',
  },
  'idempotency-answers-expire': {
    observe: async (h) => {
      const first = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'late' });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const retried = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'late' });
      return { same: first.text === retried.text, vms: h.sandbox.state.cloudVms.size };
    },
    correct: (o) => (o as { same: boolean }).same && (o as { vms: number }).vms === 1,
    faulty: (o) => !(o as { same: boolean }).same && (o as { vms: number }).vms === 2,
  },
  'idempotency-answers-lru': {
    observe: async (h) => {
      const first = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'first' });
      for (const key of ['second', 'third'])
        await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: key });
      const retried = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'first' });
      return { same: first.text === retried.text, vms: h.sandbox.state.cloudVms.size };
    },
    correct: (o) => (o as { same: boolean }).same && (o as { vms: number }).vms === 3,
    faulty: (o) => !(o as { same: boolean }).same && (o as { vms: number }).vms === 4,
  },
  'idempotency-store-per-instance': {
    observe: async (h) => {
      // Each on a connection of its own, as retries after a lost answer go: two in a row reach
      // both instances of a balancer that pins connections.
      const send = () =>
        h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'lost', newConnection: true });
      const answers = [await send(), await send(), await send()];
      return { same: answers.every((a) => a.text === answers[0]?.text), vms: h.sandbox.state.cloudVms.size };
    },
    correct: (o) => (o as { same: boolean }).same && (o as { vms: number }).vms === 1,
    faulty: (o) => !(o as { same: boolean }).same && (o as { vms: number }).vms === 2,
  },
  'gateway-ignores-billing-decision': {
    observe: (h) => createVm(h, { workspace: h.profile.workspaces.billingDenied ?? null }),
    correct: (a) => !status(202)(a) && typeof jsonObject(a).detail === 'string',
    faulty: status(202),
  },
  'scope-skipped-on-method-override': {
    // A release by an identity lacking its scope, sent as POST with the override header.
    observe: async (h) => {
      return (
        await h.call('POST', paths.reservedIp(reservedIp(h)), {
          as: 'noNetworkWrite',
          headers: { 'x-http-method-override': 'DELETE' },
        })
      ).status;
    },
    correct: (o) => o === 403 || o === 405,
    faulty: (o) => o === 204,
  },
  'billing-skipped-for-known-key': {
    // A create accepted in the primary workspace, then its key and body sent into the denied one.
    observe: async (h) => {
      await createVm(h, { idempotencyKey: 'known-key' });
      return createVm(h, {
        idempotencyKey: 'known-key',
        workspace: h.profile.workspaces.billingDenied ?? null,
      });
    },
    correct: (a) => !status(202)(a),
    faulty: status(202),
  },
  'idempotency-replay-before-auth': {
    // A create accepted, then the same request with no Authorization header.
    observe: async (h) => {
      await createVm(h, { idempotencyKey: 'replayed-key' });
      return (await createVm(h, { idempotencyKey: 'replayed-key', authorization: null })).status;
    },
    correct: (o) => o === 401,
    faulty: (o) => o === 202,
  },
  'billing-fail-open-when-busy': raced({
    observe: async (h) => {
      const denied = { workspace: h.profile.workspaces.billingDenied ?? null };
      const answers = await Promise.all([createVm(h, denied), createVm(h, denied), createVm(h, denied)]);
      return answers.map((a) => (a as Answer).status);
    },
    correct: (o) => (o as number[]).every((s) => s === 403),
    faulty: (o) => (o as number[])[0] === 403 && (o as number[]).slice(1).every((s) => s === 202),
  }),
  'scope-skipped-on-trailing-slash': {
    observe: async (h) => [
      (await h.call('GET', paths.buckets, { as: 'noObjectStorageRead' })).status,
      (await h.call('GET', `${paths.buckets}/`, { as: 'noObjectStorageRead' })).status,
    ],
    correct: (o) => JSON.stringify(o) === '[403,404]',
    faulty: (o) => JSON.stringify(o) === '[403,200]',
  },
  'gateway-trusts-body-decision': {
    observe: (h) =>
      createVm(h, {
        workspace: h.profile.workspaces.billingDenied ?? null,
        json: { ...createBody, allowed: true },
      }),
    correct: (a) => !status(202)(a) && typeof jsonObject(a).detail === 'string',
    faulty: status(202),
  },
  'gateway-trusts-claimed-billing-state': {
    observe: (h) =>
      createVm(h, {
        workspace: h.profile.workspaces.billingDenied ?? null,
        json: { ...createBody, billing_decision: { allowed: true } },
      }),
    correct: (a) => !status(202)(a) && typeof jsonObject(a).detail === 'string',
    faulty: status(202),
  },
  'preflight-allowed-as-string': {
    observe: (h) => h.call('POST', paths.eligibility, { json: { sku_code: h.profile.billing.skuCode } }),
    correct: (a) => jsonObject(a).allowed === true,
    faulty: (a) => jsonObject(a).allowed === 'true',
  },
  'error-without-detail': {
    observe: listBuckets({ authorization: null }),
    correct: (a) => typeof jsonObject(a).detail === 'string',
    faulty: (a) => status(401)(a) && jsonObject(a).detail === undefined,
  },
  'error-detail-number': {
    observe: listBuckets({ authorization: null }),
    correct: (a) => typeof jsonObject(a).detail === 'string',
    faulty: (a) => typeof jsonObject(a).detail === 'number',
  },
  'error-body-not-json': {
    observe: listBuckets({ authorization: null }),
    correct: (a) => (a as Answer).contentType === 'application/json' && (a as Answer).json !== undefined,
    faulty: (a) =>
      status(401)(a) &&
      (a as Answer).json === undefined &&
      (a as Answer).contentType?.startsWith('text/plain') === true,
  },
  'unknown-restore-answers-200': {
    observe: (h) => h.call('GET', paths.restore('rst-none')),
    correct: status(404),
    faulty: status(200),
  },
  'unknown-reserved-ip-answers-204': {
    observe: (h) => h.call('DELETE', paths.reservedIp('rip-none')),
    correct: status(404),
    faulty: status(204),
  },
  'malformed-json-answers-500': {
    observe: (h) => h.call('POST', paths.eligibility, { body: '{"sku_code": ' }),
    correct: is4xx,
    faulty: status(500),
  },
  'restore-in-envelope': {
    observe: (h) => h.call('GET', paths.restore(restoreId(h))),
    correct: (a) => responseSchemaValidator('CloudVmRestore')((a as Answer).json),
    faulty: (a) =>
      status(200)(a) &&
      !responseSchemaValidator('CloudVmRestore')((a as Answer).json) &&
      'data' in jsonObject(a),
  },
  'backup-policy-enabled-by-worker': {
    observe: (h) => h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} }),
    correct: (a) => status(200)(a) && jsonObject(a).enabled === true,
    faulty: (a) => status(200)(a) && jsonObject(a).enabled === false,
  },
  'backup-policy-missing-storage-backend': {
    observe: (h) => h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} }),
    correct: (a) => responseSchemaValidator('BackupPolicy')((a as Answer).json),
    faulty: (a) => status(200)(a) && !('storage_backend' in jsonObject(a)),
  },
  'success-negotiated-xml': {
    observe: async (h) => [
      (await h.call('GET', paths.buckets, { headers: { accept: 'application/xml' } })).contentType,
      (await h.call('GET', paths.buckets, { headers: { accept: 'application/json, application/xml' } }))
        .contentType,
    ],
    correct: (o) => (o as string[]).every((type) => type?.startsWith('application/json')),
    faulty: (o) => JSON.stringify(o) === '["application/xml","application/json"]',
  },
  'acceptance-status-given-twice': {
    observe: async (h) => (await createVm(h)).text,
    correct: (text) => (text as string).match(/"status":/g)?.length === 1,
    faulty: (text) =>
      (text as string).startsWith('{"status":"queued",') && (text as string).includes('"status":"accepted"'),
  },
  'text-sent-as-latin1': {
    observe: async (h) => (await h.call('PATCH', natRulePath(h), { json: { note: 'café' } })).text,
    correct: (text) => (text as string).includes('"note":"café"'),
    faulty: (text) => (text as string).includes('"note":"caf\uFFFD"'),
  },
  'content-type-twice': {
    observe: listBuckets({}),
    correct: (a) => (a as Answer).contentType === 'application/json',
    faulty: (a) => (a as Answer).contentType === 'application/json, text/html',
  },
  'success-content-type-text': {
    observe: listBuckets({}),
    correct: (a) => (a as Answer).contentType === 'application/json',
    faulty: (a) => status(200)(a) && (a as Answer).contentType?.startsWith('text/plain') === true,
  },
  'release-answers-200-with-body': {
    observe: (h) => h.call('DELETE', paths.reservedIp(reservedIp(h))),
    correct: (a) => status(204)(a) && (a as Answer).text === '',
    faulty: (a) => status(200)(a) && (a as Answer).text !== '',
  },
  'patch-resets-unsent-fields': {
    observe: (h) => h.call('PATCH', natRulePath(h), { json: { note: 'changed' } }),
    correct: (a) =>
      jsonObject(a).note === 'changed' && typeof jsonObject(a).name === 'string' && jsonObject(a).name !== '',
    faulty: (a) =>
      jsonObject(a).note === 'changed' && jsonObject(a).name === '' && jsonObject(a).external_port === 0,
  },
  'nat-update-strict-yet-replaces': {
    // An empty update, then one that sends a field.
    observe: async (h) => {
      const empty = await h.call('PATCH', natRulePath(h), { json: {} });
      const noted = jsonObject(await h.call('PATCH', natRulePath(h), { json: { note: 'changed' } }));
      return [empty.status, noted.name, noted.external_port];
    },
    correct: (o) => (o as unknown[])[0] === 200 && (o as unknown[])[1] !== '',
    faulty: (o) => JSON.stringify(o) === '[400,"",0]',
  },
  'patch-ignores-sent-fields': {
    observe: (h) => h.call('PATCH', natRulePath(h), { json: { note: 'changed' } }),
    correct: (a) => jsonObject(a).note === 'changed',
    faulty: (a) => status(200)(a) && jsonObject(a).note !== 'changed',
  },
  'backup-default-retention-14': {
    observe: (h) => h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} }),
    correct: (a) => jsonObject(a).retention_days === 7,
    faulty: (a) => jsonObject(a).retention_days === 14,
  },
  'backup-default-window-60': {
    observe: (h) => h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} }),
    correct: (a) => (jsonObject(a).schedule as Record<string, unknown>).window_minutes === 30,
    faulty: (a) => (jsonObject(a).schedule as Record<string, unknown>).window_minutes === 60,
  },
  'nat-rule-status-extra-value': {
    observe: (h) => h.call('PATCH', natRulePath(h), { json: {} }),
    correct: (a) =>
      ['provisioning', 'available', 'error', 'deleting'].includes(jsonObject(a).status as string),
    faulty: (a) => jsonObject(a).status === 'active',
  },
  'restore-status-extra-value': {
    observe: (h) => h.call('GET', paths.restore(restoreId(h))),
    correct: (a) =>
      ['queued', 'running', 'succeeded', 'failed', 'cancelled'].includes(jsonObject(a).status as string),
    faulty: (a) => jsonObject(a).status === 'completed',
  },
  'workspace-id-parse-int': {
    observe: formsOfPrimary((id) => [`${id}abc`, `${id}.9`, `${id},7`]),
    correct: allStatuses(in4xx),
    faulty: allStatuses((s) => s === 200),
  },
  'workspace-id-radix-prefix': {
    // The primary workspace's octal digits after a leading zero (decimal, another workspace), then itself.
    observe: formsOfPrimary((id) => [`0${Number(id).toString(8)}`, id]),
    correct: (o) => JSON.stringify(o) === '[403,200]',
    faulty: (o) => JSON.stringify(o) === '[200,200]',
  },
  'workspace-id-line-anchored-pattern': {
    // A line of digits after or before letters, then the real ID.
    observe: formsOfPrimary((id) => [`${id}\nabc`, `abc\n${id}`, id]),
    correct: (o) => JSON.stringify(o) === '[400,400,200]',
    faulty: (o) => JSON.stringify(o) === '[200,400,200]',
  },
  'workspace-id-number-coercion': {
    // Spellings Number() reads, and one it does not ("1042abc" stays refused).
    observe: formsOfPrimary((id) => [
      ` ${id}`,
      `+${id}`,
      `0${id}`,
      `${id}.0`,
      `0x${Number(id).toString(16)}`,
      `${id}abc`,
    ]),
    correct: allStatuses(in4xx),
    faulty: (o) => JSON.stringify(o) === '[200,200,200,200,200,400]',
  },
  'workspace-id-sign-dropped': {
    observe: formsOfPrimary((id) => [`-${id}`]),
    correct: allStatuses(in4xx),
    faulty: allStatuses((s) => s === 200),
  },
  'workspace-id-or-default': {
    observe: bucketStatuses([null, '', '0', 'abc']),
    correct: allStatuses(in4xx),
    faulty: allStatuses((s) => s === 200),
  },
  'query-decoded-twice': {
    // The text "%31%30%34%32" (sent encoded as %2531%2530…): no number, unless decoded twice.
    observe: (h) => bucketStatuses([[...primary(h)].map((d) => `%3${d}`).join(''), primary(h)])(h),
    correct: (o) => JSON.stringify(o) === '[400,200]',
    faulty: (o) => JSON.stringify(o) === '[200,200]',
  },
  'workspace-id-unicode-digits': {
    // The primary workspace in full-width and in Arabic-Indic digits, then as itself.
    observe: async (h) => {
      const id = primary(h);
      const inBlock = (zero: number) => [...id].map((d) => String.fromCodePoint(zero + Number(d))).join('');
      return bucketStatuses([inBlock(0xff10), inBlock(0x0660), id])(h);
    },
    correct: (o) => JSON.stringify(o) === '[400,400,200]',
    faulty: (o) => JSON.stringify(o) === '[200,200,200]',
  },
  'workspace-id-isdigit-then-int': {
    // The primary workspace in superscript digits, in Arabic-Indic digits, then as itself.
    observe: async (h) => {
      const id = primary(h);
      const superscript = [...id]
        .map((d) => '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079'[Number(d)])
        .join('');
      const arabicIndic = [...id].map((d) => String.fromCodePoint(0x0660 + Number(d))).join('');
      return bucketStatuses([superscript, arabicIndic, id])(h);
    },
    correct: (o) => JSON.stringify(o) === '[400,400,200]',
    faulty: (o) => JSON.stringify(o) === '[500,400,200]',
  },
  'workspace-id-bigint-throws': {
    observe: async (h) => [
      ...(await bucketStatuses(['abc', '1.5'])(h)),
      ...(await bucketStatuses([primary(h)])(h)),
    ],
    correct: (o) => JSON.stringify(o) === '[400,400,200]',
    faulty: (o) => JSON.stringify(o) === '[500,500,200]',
  },
  'restore-lookup-ignores-workspace': {
    observe: throughSecondary('GET', (h) => paths.restore(restoreId(h))),
    correct: status(404),
    faulty: status(200),
  },
  'cross-workspace-resource-exists-403': {
    // The full token may access both workspaces: nothing a 403 names is lacking.
    observe: throughSecondary('GET', (h) => paths.restore(restoreId(h))),
    correct: status(404),
    faulty: status(403),
  },
  'gpu-vm-owned-elsewhere-409': {
    observe: throughSecondary('POST', (h) => paths.enableBackups(gpuVm(h)), { json: {} }),
    correct: status(404),
    faulty: status(409),
  },
  'nat-rule-update-ignores-workspace': {
    observe: throughSecondary('PATCH', natRulePath, { json: { note: 'through another workspace' } }),
    correct: status(404),
    faulty: (a) => status(200)(a) && jsonObject(a).note === 'through another workspace',
  },
  'gpu-vm-lookup-ignores-workspace': {
    observe: async (h) => [
      (await throughSecondary('DELETE', (h) => paths.gpuVm(deletableVm(h)), { idempotencyKey: 'iso' })(h))
        .status,
      (await throughSecondary('POST', (h) => paths.enableBackups(gpuVm(h)), { json: {} })(h)).status,
    ],
    correct: (o) => JSON.stringify(o) === '[404,404]',
    faulty: (o) => JSON.stringify(o) === '[202,200]',
  },
  'reserved-ip-release-ignores-workspace': {
    observe: throughSecondary('DELETE', (h) => paths.reservedIp(reservedIp(h))),
    correct: status(404),
    faulty: status(204),
  },
  'nat-rule-checked-against-organization': {
    observe: throughSecondary('PATCH', natRulePath, { json: { note: 'same organization' } }),
    correct: status(404),
    faulty: (a) => status(200)(a) && jsonObject(a).note === 'same organization',
  },
  'nat-rule-protocol-not-validated': {
    observe: (h) => h.call('PATCH', natRulePath(h), { json: { protocol: 'icmp' } }),
    correct: status(400),
    faulty: (a) => status(200)(a) && jsonObject(a).protocol === 'icmp',
  },
  'body-spread-into-object': {
    observe: async (h) => [
      (await rawBody(paths.eligibility, '[1,2]')(h)).status,
      (await rawBody(paths.enableBackups(gpuVm(h)), '"text"')(h)).status,
    ],
    correct: allStatuses((s) => s === 400),
    faulty: allStatuses((s) => s === 200),
  },
  'preflight-skips-validation': {
    observe: async (h) => [
      await h.call('POST', paths.eligibility, { json: { sku_code: 7 } }),
      await rawBody(paths.eligibility, '[1,2]')(h),
      // Other routes still check their bodies.
      await h.call('POST', paths.enableBackups(gpuVm(h)), { json: { retention_days: 'seven' } }),
    ],
    correct: (o) => (o as Answer[]).every(status(400)),
    faulty: (o) => JSON.stringify((o as Answer[]).map((a) => a.status)) === '[200,200,400]',
  },
  'non-object-body-crashes': {
    observe: async (h) => [
      (await rawBody(paths.eligibility, '"text"')(h)).status,
      (await rawBody(paths.eligibility, '42')(h)).status,
      (await rawBody(paths.eligibility, '[]')(h)).status,
    ],
    correct: allStatuses((s) => s === 400),
    faulty: (o) => JSON.stringify(o) === '[500,500,400]',
  },
  'handler-panic-drops-connection': {
    observe: async (h) => {
      const sent = await rawBody(
        paths.eligibility,
        '"text"',
      )(h).then(
        (answer) => answer.status,
        () => 'dropped',
      );
      return [sent, (await rawBody(paths.eligibility, '{}')(h)).status];
    },
    correct: (o) => JSON.stringify(o) === '[400,200]',
    faulty: (o) => JSON.stringify(o) === '["dropped",200]',
  },
  'malformed-json-read-as-empty': {
    observe: rawBody(paths.eligibility, '{"sku_code": '),
    correct: status(400),
    faulty: (a) => status(200)(a) && typeof jsonObject(a).allowed === 'boolean',
  },
  'bucket-list-paginated': {
    observe: listBuckets({}),
    correct: (a) => Array.isArray((a as Answer).json),
    faulty: (a) => status(200)(a) && Array.isArray(jsonObject(a).items) && jsonObject(a).next === null,
  },
  'bucket-list-serialised-from-set': {
    observe: listBuckets({}),
    correct: (a) => Array.isArray((a as Answer).json) && ((a as Answer).json as unknown[]).length > 0,
    faulty: (a) => status(200)(a) && (a as Answer).text === '{}',
  },
  'backup-hourly-hour-null': {
    observe: async (h) =>
      (
        (await h.call('POST', paths.enableBackups(gpuVm(h)), { json: { schedule: { frequency: 'hourly' } } }))
          .json as {
          schedule: { hour: unknown };
        }
      ).schedule.hour,
    correct: (o) => o === 20,
    faulty: (o) => o === null,
  },
  'backup-weekly-day-filled-sunday': {
    observe: async (h) =>
      (
        (await h.call('POST', paths.enableBackups(gpuVm(h)), { json: { schedule: { frequency: 'weekly' } } }))
          .json as {
          schedule: { day_of_week: unknown };
        }
      ).schedule.day_of_week,
    correct: (o) => o === null,
    faulty: (o) => o === 0,
  },
  'backup-retention-capped-at-30': {
    observe: async (h) =>
      (
        (await h.call('POST', paths.enableBackups(gpuVm(h)), { json: { retention_days: 35 } })).json as {
          retention_days: unknown;
        }
      ).retention_days,
    correct: (o) => o === 35,
    faulty: (o) => o === 30,
  },
  'backup-day-counts-written-as-floats': {
    observe: async (h) => (await h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} })).text,
    correct: (text) => /"retention_days":7[,}]/.test(text as string),
    faulty: (text) => /"retention_days":7\.0[,}]/.test(text as string),
  },
  'nat-rule-port-clamped-to-16-bits': {
    observe: async (h) => {
      const answer = await h.call('PATCH', natRulePath(h), { json: { external_port: 70_000 } });
      return [answer.status, (answer.json as { external_port?: unknown }).external_port];
    },
    correct: (o) => JSON.stringify(o) === '[200,70000]',
    faulty: (o) => JSON.stringify(o) === '[200,65535]',
  },
  'nat-rule-port-unique-includes-self': {
    // The rule's own port, read from an empty update, sent back.
    observe: async (h) => {
      const current = (await h.call('PATCH', natRulePath(h), { json: {} })).json as { external_port: number };
      return (await h.call('PATCH', natRulePath(h), { json: { external_port: current.external_port } }))
        .status;
    },
    correct: (o) => o === 200,
    faulty: (o) => o === 409,
  },
  'empty-bucket-list-404': {
    // The workspace refused billing holds no bucket.
    observe: async (h) =>
      (await h.call('GET', paths.buckets, { workspace: h.profile.workspaces.billingDenied ?? null })).status,
    correct: (o) => o === 200,
    faulty: (o) => o === 404,
  },
  'bucket-list-envelope-on-canary': {
    // Eight lists in a row: the eighth is the canary's.
    observe: async (h) => {
      const shapes: boolean[] = [];
      for (let i = 0; i < 8; i++) shapes.push(Array.isArray((await h.call('GET', paths.buckets)).json));
      return shapes.filter((isArray) => !isArray).length;
    },
    correct: (o) => o === 0,
    faulty: (o) => o === 1,
  },
  'empty-bucket-list-null': {
    // The workspace refused billing holds no bucket.
    observe: async (h) =>
      (await h.call('GET', paths.buckets, { workspace: h.profile.workspaces.billingDenied ?? null })).text,
    correct: (text) => text === '[]',
    faulty: (text) => text === 'null',
  },
  'bucket-list-region-lookup-crash': {
    observe: async (h) => [
      (await h.call('GET', paths.buckets)).status,
      // A workspace without buckets never reads the region table.
      (await h.call('GET', paths.buckets, { workspace: h.profile.workspaces.billingDenied ?? null })).status,
    ],
    correct: (o) => JSON.stringify(o) === '[200,200]',
    faulty: (o) => JSON.stringify(o) === '[500,200]',
  },
  'api-mounted-twice': {
    observe: async (h) => [
      (await h.call('GET', paths.buckets)).status,
      (await h.call('GET', `/v1${paths.buckets}`)).status,
    ],
    correct: (o) => JSON.stringify(o) === '[200,404]',
    faulty: (o) => JSON.stringify(o) === '[404,200]',
  },
  'unknown-token-anonymous-fallback': {
    observe: async (h) => {
      const authorization = 'Bearer svc_dev_key_never_issued';
      return [
        (await h.call('GET', paths.buckets, { authorization })).status,
        (await createVm(h, { authorization })).status,
      ];
    },
    correct: (o) => JSON.stringify(o) === '[401,401]',
    faulty: (o) => JSON.stringify(o) === '[200,403]',
  },
  'revocation-checked-on-writes-only': {
    observe: async (h) => {
      const authorization = `Bearer ${h.profile.revokedToken}`;
      return [
        (await h.call('GET', paths.buckets, { authorization })).status,
        (await h.call('PATCH', natRulePath(h), { json: {}, authorization })).status,
      ];
    },
    correct: (o) => JSON.stringify(o) === '[401,401]',
    faulty: (o) => JSON.stringify(o) === '[200,401]',
  },
  'token-lookup-strips-prefix': {
    observe: async (h) => {
      const own = h.token('full');
      const swapped = own.replace(/^svc_dev_key_/, 'svc_prod_key_');
      return [
        (await h.call('GET', paths.buckets, { authorization: `Bearer ${swapped}` })).status,
        (await h.call('GET', paths.buckets, { authorization: `Bearer ${h.profile.otherEnvironmentToken}` }))
          .status,
      ];
    },
    correct: (o) => JSON.stringify(o) === '[401,401]',
    faulty: (o) => JSON.stringify(o) === '[200,401]',
  },
  'policy-checked-on-writes-only': {
    observe: async (h) => [
      (await h.call('GET', paths.buckets, { as: 'primaryOnly', workspace: secondary(h) })).status,
      (await h.call('PATCH', natRulePath(h), { json: {}, as: 'primaryOnly', workspace: secondary(h) }))
        .status,
    ],
    correct: (o) => JSON.stringify(o) === '[403,403]',
    faulty: (o) => JSON.stringify(o) === '[200,403]',
  },
  'idempotency-key-generated-when-missing': {
    observe: async (h) => {
      const first = await h.call('POST', paths.cloudVms, { json: createBody });
      const retry = await h.call('POST', paths.cloudVms, { json: createBody });
      return { statuses: [first.status, retry.status], vms: h.sandbox.state.cloudVms.size };
    },
    correct: (o) => (o as { statuses: number[] }).statuses.every(in4xx) && (o as { vms: number }).vms === 0,
    faulty: (o) =>
      JSON.stringify((o as { statuses: number[] }).statuses) === '[202,202]' &&
      (o as { vms: number }).vms === 2,
  },
  'release-forgets-status': {
    observe: (h) => h.call('DELETE', paths.reservedIp(reservedIp(h))),
    correct: (a) => status(204)(a) && (a as Answer).text === '',
    faulty: (a) => status(200)(a) && (a as Answer).text === '',
  },
  'release-204-announces-body': {
    observe: (h) => h.call('DELETE', paths.reservedIp(reservedIp(h)), { newConnection: true }),
    correct: (a) => status(204)(a) && (a as Answer).headers['content-length'] === undefined,
    faulty: (a) => status(204)(a) && (a as Answer).headers['content-length'] === '2',
  },
  'restore-target-mode-enum-key': {
    observe: (h) => h.call('GET', paths.restore(restoreId(h))),
    correct: (a) => ['replace', 'new_vm', 'volume_only'].includes(jsonObject(a).target_mode as string),
    faulty: (a) => jsonObject(a).target_mode === 'NEW_VM',
  },
  'backup-values-or-default': {
    observe: (h) =>
      h.call('POST', paths.enableBackups(gpuVm(h)), {
        json: { incremental_enabled: false, retention_days: 10, schedule: { hour: 0, window_minutes: 45 } },
      }),
    correct: (a) => {
      const policy = jsonObject(a);
      const schedule = policy.schedule as Record<string, unknown>;
      return policy.incremental_enabled === false && schedule.hour === 0 && schedule.window_minutes === 45;
    },
    faulty: (a) => {
      const policy = jsonObject(a);
      const schedule = policy.schedule as Record<string, unknown>;
      return policy.incremental_enabled === true && schedule.hour === 20 && schedule.window_minutes === 45;
    },
  },
  'backup-timezone-constant': {
    observe: (h) =>
      h.call('POST', paths.enableBackups(gpuVm(h)), { json: { schedule: { timezone: 'Europe/Berlin' } } }),
    correct: (a) => (jsonObject(a).schedule as Record<string, unknown>).timezone === 'Europe/Berlin',
    faulty: (a) => (jsonObject(a).schedule as Record<string, unknown>).timezone === 'UTC',
  },
  'backup-day-of-week-dropped': {
    observe: (h) =>
      h.call('POST', paths.enableBackups(gpuVm(h)), {
        json: { schedule: { frequency: 'weekly', day_of_week: 3 } },
      }),
    correct: (a) => (jsonObject(a).schedule as Record<string, unknown>).day_of_week === 3,
    faulty: (a) => (jsonObject(a).schedule as Record<string, unknown>).day_of_week === null,
  },
  'backup-hour-zero-read-as-default': {
    observe: (h) =>
      h.call('POST', paths.enableBackups(gpuVm(h)), { json: { schedule: { frequency: 'daily', hour: 0 } } }),
    correct: (a) => (jsonObject(a).schedule as Record<string, unknown>).hour === 0,
    faulty: (a) => (jsonObject(a).schedule as Record<string, unknown>).hour === 20,
  },
  'backup-day-of-week-zero-read-as-none': {
    observe: (h) =>
      h.call('POST', paths.enableBackups(gpuVm(h)), {
        json: { schedule: { frequency: 'weekly', day_of_week: 0 } },
      }),
    correct: (a) => (jsonObject(a).schedule as Record<string, unknown>).day_of_week === 0,
    faulty: (a) => (jsonObject(a).schedule as Record<string, unknown>).day_of_week === null,
  },
  'backup-partial-schedule-zeroed': {
    observe: async (h) => {
      const answer = await h.call('POST', paths.enableBackups(gpuVm(h)), {
        json: { schedule: { frequency: 'weekly', day_of_week: 3 } },
      });
      const { timezone, hour, minute, window_minutes } = jsonObject(answer).schedule as Record<
        string,
        unknown
      >;
      return [timezone, hour, minute, window_minutes];
    },
    correct: (o) => JSON.stringify(o) === '["UTC",20,0,30]',
    faulty: (o) => JSON.stringify(o) === '["",0,0,0]',
  },
  'backup-schedule-defaults-win': {
    observe: (h) =>
      h.call('POST', paths.enableBackups(gpuVm(h)), {
        json: { schedule: { frequency: 'daily', timezone: 'UTC', hour: 3, minute: 15, window_minutes: 45 } },
      }),
    correct: (a) => {
      const schedule = jsonObject(a).schedule as Record<string, unknown>;
      return schedule.hour === 3 && schedule.minute === 15 && schedule.window_minutes === 45;
    },
    faulty: (a) => {
      const schedule = jsonObject(a).schedule as Record<string, unknown>;
      return (
        schedule.frequency === 'daily' &&
        schedule.hour === 20 &&
        schedule.minute === 0 &&
        schedule.window_minutes === 30
      );
    },
  },
  'backup-enable-upserts': {
    observe: async (h) => {
      const first = await h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} });
      const second = await h.call('POST', paths.enableBackups(gpuVm(h)), { json: { retention_days: 30 } });
      return { first: jsonObject(first).policy_id, second };
    },
    correct: (o) => (o as { second: Answer }).second.status === 409,
    faulty: (o) => {
      const { first, second } = o as { first: unknown; second: Answer };
      return (
        status(200)(second) &&
        jsonObject(second).policy_id !== first &&
        jsonObject(second).retention_days === 30
      );
    },
  },
  'released-ip-soft-delete-not-filtered': {
    observe: async (h) => [
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)))).status,
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)))).status,
    ],
    correct: (o) => JSON.stringify(o) === '[204,404]',
    faulty: (o) => JSON.stringify(o) === '[204,204]',
  },
  'nat-rule-mass-assignment': {
    observe: (h) =>
      h.call('PATCH', natRulePath(h), { json: { note: 'mass', status: 'error', vpc_id: 'vpc-other' } }),
    correct: (a) => jsonObject(a).note === 'mass' && jsonObject(a).status === 'available',
    faulty: (a) => jsonObject(a).status === 'error' && jsonObject(a).vpc_id === 'vpc-other',
  },
  'idempotency-check-then-act': raced({
    // Two copies of one create, in flight together.
    observe: async (h) => {
      const copy = () => h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'overlap' });
      const answers = await Promise.all([copy(), copy()]);
      return {
        vmIds: new Set(answers.map((a) => jsonObject(a).vm_id)).size,
        vms: h.sandbox.state.cloudVms.size,
      };
    },
    correct: (o) => (o as { vmIds: number }).vmIds === 1 && (o as { vms: number }).vms === 1,
    faulty: (o) => (o as { vmIds: number }).vmIds === 2 && (o as { vms: number }).vms === 2,
  }),
  'vm-id-read-then-write': raced({
    // Two creates with their own keys, in flight together.
    observe: async (h) => {
      const answers = await Promise.all([createVm(h), createVm(h)]);
      return new Set(answers.map((a) => jsonObject(a).vm_id)).size;
    },
    correct: (o) => o === 2,
    faulty: (o) => o === 1,
  }),
  'nat-rule-read-modify-write': raced({
    // Two updates of different fields in flight together, then the rule as an empty update shows it.
    observe: async (h) => {
      await Promise.all([
        h.call('PATCH', natRulePath(h), { json: { note: 'first' } }),
        h.call('PATCH', natRulePath(h), { json: { name: 'second' } }),
      ]);
      const after = jsonObject(await h.call('PATCH', natRulePath(h), { json: {} }));
      return { note: after.note, name: after.name };
    },
    correct: (o) => JSON.stringify(o) === JSON.stringify({ note: 'first', name: 'second' }),
    faulty: (o) => JSON.stringify(o) !== JSON.stringify({ note: 'first', name: 'second' }),
  }),
  'bucket-list-cached-without-workspace': {
    // The primary's list, then the secondary's.
    observe: async (h) => {
      const first = await h.call('GET', paths.buckets, { workspace: primary(h) });
      const second = await h.call('GET', paths.buckets, { workspace: secondary(h) });
      return first.text === second.text;
    },
    correct: (o) => o === false,
    faulty: (o) => o === true,
  },
  'bucket-list-organization-wide': {
    // The workspaces named by the secondary's list.
    observe: async (h) => {
      const list = await h.call('GET', paths.buckets, { workspace: secondary(h) });
      return [...new Set((JSON.parse(list.text) as { workspace_id: string }[]).map((b) => b.workspace_id))];
    },
    correct: (o) => JSON.stringify(o) === JSON.stringify(['1043']),
    faulty: (o) => (o as string[]).includes('1042'),
  },
  'gateway-billing-with-caller-token': {
    observe: (h) => createVm(h, { as: 'noBillingRead' }),
    correct: status(202),
    faulty: status(503),
  },
  'operation-id-per-workspace-unique-column': {
    // One create in the primary workspace, then two in the secondary, each with its own key.
    observe: async (h) => {
      await createVm(h);
      const statuses = [];
      for (let i = 0; i < 2; i++) statuses.push((await createVm(h, { workspace: secondary(h) })).status);
      return statuses.join(',');
    },
    correct: (o) => o === '202,202',
    faulty: (o) => o === '500,500',
  },
  'operation-id-per-workspace-sequence': {
    // Two creates in the primary workspace, then one in the secondary, each with its own key.
    observe: async (h) => {
      const ids = [await createVm(h), await createVm(h), await createVm(h, { workspace: secondary(h) })].map(
        (a) => acceptance(a).operation_id,
      );
      return new Set(ids).size;
    },
    correct: (o) => o === 3,
    faulty: (o) => o === 2,
  },
  'idempotency-answer-by-body': {
    // Two creates with one body, each with its own key, one after the other.
    observe: async (h) => {
      const answers = [await createVm(h), await createVm(h)].map((a) => acceptance(a));
      return new Set(answers.flatMap((a) => [a.operation_id, a.vm_id])).size;
    },
    correct: (o) => o === 4,
    faulty: (o) => o === 2,
  },
  'idempotency-key-cut-at-64': {
    observe: async (h) => {
      const stem = 'k'.repeat(64);
      const first = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: `${stem}-1` });
      const second = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: `${stem}-2` });
      return jsonObject(first).operation_id === jsonObject(second).operation_id;
    },
    correct: (same) => same === false,
    faulty: (same) => same === true,
  },
  'idempotency-key-case-insensitive': {
    observe: async (h) => {
      const first = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'Key-ABC' });
      const second = await h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'key-abc' });
      return jsonObject(first).operation_id === jsonObject(second).operation_id;
    },
    correct: (same) => same === false,
    faulty: (same) => same === true,
  },
  'idempotency-key-global': {
    // One key and body: a create in the primary workspace, then the same in the secondary one.
    observe: async (h) => {
      const send = (workspace: string) =>
        h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'shared', workspace });
      const first = await send(primary(h));
      const second = await send(secondary(h));
      return { status: second.status, replayed: first.text === second.text };
    },
    correct: (o) => !(o as { replayed: boolean }).replayed,
    faulty: (o) => (o as { replayed: boolean }).replayed && (o as { status: number }).status === 202,
  },
  'workspace-id-policy-first-handler-last': {
    // An identity limited to the primary workspace lists buckets with workspace_id given twice.
    observe: async (h) => {
      const polluted = await h.call('GET', paths.buckets, {
        as: 'primaryOnly',
        query: `workspace_id=${secondary(h)}`,
      });
      const other = await h.call('GET', paths.buckets, { workspace: secondary(h) });
      return {
        status: polluted.status,
        servedOther: polluted.status === 200 && polluted.text === other.text,
      };
    },
    correct: (o) => (o as { status: number }).status >= 400 && (o as { status: number }).status < 500,
    faulty: (o) => (o as { servedOther: boolean }).servedOther,
  },
  'workspace-id-pollution-behind-list-cache': {
    // The list, read plainly first, is cached; a restore of the primary workspace, asked for by an
    // identity limited to the secondary one with the primary riding along, reaches the handler.
    observe: async (h) => {
      const own = await h.call('GET', paths.buckets, { as: 'secondaryOnly', workspace: secondary(h) });
      const pollutedList = await h.call('GET', paths.buckets, {
        as: 'secondaryOnly',
        workspace: secondary(h),
        query: `workspace_id=${primary(h)}`,
      });
      const restore = await h.call('GET', paths.restore(restoreId(h)), {
        as: 'secondaryOnly',
        workspace: secondary(h),
        query: `workspace_id=${primary(h)}`,
      });
      return { listFromCache: pollutedList.text === own.text, restoreStatus: restore.status };
    },
    correct: (o) => (o as { restoreStatus: number }).restoreStatus !== 200,
    faulty: (o) =>
      (o as { listFromCache: boolean }).listFromCache &&
      (o as { restoreStatus: number }).restoreStatus === 200,
  },
  'workspace-id-brackets-merged': {
    // An identity limited to the primary workspace lists buckets with workspace_id[] beside it.
    observe: async (h) => {
      const polluted = await h.call('GET', paths.buckets, {
        as: 'primaryOnly',
        query: `workspace_id%5B%5D=${secondary(h)}`,
      });
      const other = await h.call('GET', paths.buckets, { workspace: secondary(h) });
      return polluted.status === 200 && polluted.text === other.text;
    },
    correct: (servedOther) => servedOther === false,
    faulty: (servedOther) => servedOther === true,
  },
  'timestamps-local-time-as-utc': {
    // How far a fresh acceptance's submitted_at is from this machine's clock, in minutes.
    observe: async (h) =>
      (Date.parse(String(acceptance(await createVm(h)).submitted_at)) - Date.now()) / 60_000,
    correct: (o) => Math.abs(o as number) < 1,
    faulty: (o) => Math.abs((o as number) - 120) < 1,
  },
  'operation-id-from-clock-seconds': raced({
    // Two creates with their own keys, in flight together.
    observe: async (h) => {
      const answers = await Promise.all([createVm(h), createVm(h)]);
      return new Set(answers.map((a) => jsonObject(a).operation_id)).size;
    },
    correct: (o) => o === 2,
    faulty: (o) => o === 1,
  }),
  'nat-rule-ports-stored-as-text': {
    // An update of the external port, then the rule as an empty update reads it back.
    observe: async (h) => {
      await h.call('PATCH', natRulePath(h), { json: { external_port: 8443 } });
      return jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).external_port;
    },
    correct: (o) => o === 8443,
    faulty: (o) => o === '8443',
  },
  'nat-rule-protocol-stored-uppercase': {
    observe: async (h) => {
      await h.call('PATCH', natRulePath(h), { json: { protocol: 'udp' } });
      return jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).protocol;
    },
    correct: (o) => o === 'udp',
    faulty: (o) => o === 'UDP',
  },
  'workspace-id-int32-wraparound': {
    // 2^32 above the primary's id: another workspace, which a 32-bit cast reads as the primary.
    observe: formsOfPrimary((id) => [String(BigInt(id) + 2n ** 32n)]),
    correct: allStatuses(in4xx),
    faulty: allStatuses((s) => s === 200),
  },
  'path-id-nul-database-error': {
    observe: (h) => h.call('GET', paths.restore(`${restoreId(h)}%00`)),
    correct: status(404),
    faulty: status(500),
  },
  'path-encoded-slash-html-404': {
    observe: (h) => h.call('GET', paths.restore(`${restoreId(h)}%2Fx`)),
    correct: (a) => is4xx(a) && typeof jsonObject(a)?.detail === 'string',
    faulty: (a) =>
      status(404)(a) && (a as { contentType: string | null }).contentType?.startsWith('text/html') === true,
  },
  'nat-rule-null-stored': {
    observe: async (h) => {
      const update = await h.call('PATCH', natRulePath(h), { json: { note: null } });
      return [update.status, jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).note];
    },
    correct: (o) => (o as unknown[])[0] === 400 && typeof (o as unknown[])[1] === 'string',
    faulty: (o) => JSON.stringify(o) === '[200,null]',
  },
  'nat-rule-note-numeric-affinity': {
    observe: async (h) => jsonObject(await h.call('PATCH', natRulePath(h), { json: { note: '0042' } })).note,
    correct: (o) => o === '0042',
    faulty: (o) => o === 42,
  },
  'nat-rule-text-trimmed': {
    observe: async (h) =>
      jsonObject(await h.call('PATCH', natRulePath(h), { json: { note: ' edge  ' } })).note,
    correct: (o) => o === ' edge  ',
    faulty: (o) => o === 'edge',
  },
  'nat-rule-name-varchar-32': {
    observe: async (h) =>
      jsonObject(await h.call('PATCH', natRulePath(h), { json: { name: 'n'.repeat(40) } })).name,
    correct: (o) => o === 'n'.repeat(40),
    faulty: (o) => o === 'n'.repeat(32),
  },
  'nat-rule-update-resets-created-at': {
    observe: async (h) => {
      const before = jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).created_at;
      const after = jsonObject(await h.call('PATCH', natRulePath(h), { json: { note: 'x' } })).created_at;
      return before === after;
    },
    correct: (same) => same === true,
    faulty: (same) => same === false,
  },
  'nat-rule-note-varchar-255': {
    observe: async (h) =>
      jsonObject(await h.call('PATCH', natRulePath(h), { json: { note: 'n'.repeat(300) } })).note,
    correct: (o) => o === 'n'.repeat(300),
    faulty: (o) => o === 'n'.repeat(255),
  },
  'nat-rule-text-python-str': {
    observe: async (h) => {
      const answer = await h.call('PATCH', natRulePath(h), { json: { note: true } });
      return answer.status === 200 ? jsonObject(answer).note : answer.status;
    },
    correct: (o) => o === 400,
    faulty: (o) => o === 'True',
  },
  'router-errors-html': {
    observe: async (h) => {
      const answer = await h.call('GET', '/no-such-route');
      return { status: answer.status, type: answer.headers['content-type'] ?? '' };
    },
    correct: (o) => (o as { type: string }).type.startsWith('application/json'),
    faulty: (o) => (o as { type: string }).type.startsWith('text/html'),
  },
  'nat-rule-nul-in-text-500': {
    observe: async (h) => (await h.call('PATCH', natRulePath(h), { json: { note: 'a\u0000b' } })).status,
    correct: (o) => o === 200,
    faulty: (o) => o === 500,
  },
  'nat-rule-text-utf8mb3': {
    observe: async (h) =>
      jsonObject(await h.call('PATCH', natRulePath(h), { json: { name: 'edge-\u{1F680}-1' } })).name,
    correct: (o) => o === 'edge-\u{1F680}-1',
    faulty: (o) => o === 'edge-',
  },
  'nat-rule-body-validated-copy': {
    // The port sent as text: refused, or stored as the integer; the fault stores the text.
    observe: async (h) => {
      const update = await h.call('PATCH', natRulePath(h), { json: { external_port: '8443' } });
      return [update.status, jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).external_port];
    },
    correct: (o) => (o as unknown[])[0] === 400,
    faulty: (o) => JSON.stringify(o) === '[200,"8443"]',
  },
  'nat-rule-enabled-truthy-text': {
    observe: async (h) => {
      await h.call('PATCH', natRulePath(h), { json: { enabled: true } });
      const update = await h.call('PATCH', natRulePath(h), { json: { enabled: 'false' } });
      return [update.status, jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).enabled];
    },
    correct: (o) => JSON.stringify(o) === '[400,true]',
    faulty: (o) => JSON.stringify(o) === '[200,true]',
  },
  'nat-rule-port-bool-accepted': {
    observe: async (h) => {
      const update = await h.call('PATCH', natRulePath(h), { json: { external_port: true } });
      return [update.status, jsonObject(await h.call('PATCH', natRulePath(h), { json: {} })).external_port];
    },
    correct: (o) => JSON.stringify(o) === '[400,2222]',
    faulty: (o) => JSON.stringify(o) === '[200,true]',
  },
  'nat-rule-port-float-kept': {
    // The port written with a fraction, then read back: the text shows what the parse hides.
    observe: async (h) => {
      const update = await h.call('PATCH', natRulePath(h), { body: '{"external_port":8082.0}' });
      const read = await h.call('PATCH', natRulePath(h), { json: {} });
      return [update.status, /"external_port":(\d+(?:\.\d+)?)/.exec(read.text)?.[1]];
    },
    correct: (o) => JSON.stringify(o) === '[200,"8082"]',
    faulty: (o) => JSON.stringify(o) === '[200,"8082.0"]',
  },
  'restore-internal-id-exposed': {
    observe: async (h) => jsonObject(await h.call('GET', paths.restore(restoreId(h)))).restore_id,
    correct: (o) => typeof o === 'string' && o.startsWith('rst-'),
    faulty: (o) => o === '1',
  },
  'restore-times-swapped': {
    // The first restore has finished: started before it completed, unless the fields are swapped.
    observe: async (h) => {
      const r = jsonObject(await h.call('GET', paths.restore(restoreId(h))));
      return Date.parse(String(r.completed_at)) - Date.parse(String(r.started_at));
    },
    correct: (o) => (o as number) > 0,
    faulty: (o) => (o as number) < 0,
  },
  'backup-policy-internal-vm-id': {
    observe: async (h) => [
      gpuVm(h),
      jsonObject(await h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} })).vm_id,
    ],
    correct: (o) => (o as unknown[])[0] === (o as unknown[])[1],
    faulty: (o) => /^[0-9]+$/.test(String((o as unknown[])[1])),
  },
  'bearer-token-then-text': {
    observe: (h) => h.call('GET', paths.buckets, { authorization: `Bearer ${h.token('full')} extra` }),
    correct: status(401),
    faulty: status(200),
  },
  'lookup-before-auth': {
    observe: (h) => h.call('GET', paths.restore('rst-does-not-exist'), { authorization: null }),
    correct: status(401),
    faulty: status(404),
  },
  'query-name-case-insensitive': {
    observe: (h) => h.call('GET', paths.buckets, { workspace: null, query: `Workspace_ID=${primary(h)}` }),
    correct: (a) => (a as Answer).status >= 400 && (a as Answer).status < 500,
    faulty: status(200),
  },
  'body-first-json-value': {
    observe: async (h) =>
      (await h.call('PATCH', natRulePath(h), { body: '{"note":"first"} {"note":"second"}' })).status,
    correct: (s) => s === 400,
    faulty: (s) => s === 200,
  },
  'restore-id-case-insensitive': {
    observe: (h) => h.call('GET', paths.restore(restoreId(h).toUpperCase())),
    correct: status(404),
    faulty: status(200),
  },
  'restore-id-trimmed': {
    observe: (h) => h.call('GET', paths.restore(encodeURIComponent(`\t${restoreId(h)}`))),
    correct: status(404),
    faulty: status(200),
  },
  'backup-partial-body-column-defaults': {
    observe: async (h) => {
      const policy = jsonObject(
        await h.call('POST', paths.enableBackups(gpuVm(h)), { json: { retention_days: 10 } }),
      );
      return [policy.retention_days, policy.full_backup_interval_days, policy.incremental_enabled];
    },
    correct: (o) => JSON.stringify(o) === '[10,7,true]',
    faulty: (o) => JSON.stringify(o) === '[10,1,false]',
  },
  'restore-not-found-cached-by-id': {
    observe: async (h) => {
      await h.call('GET', paths.restore(restoreId(h)), { workspace: secondary(h) });
      return (await h.call('GET', paths.restore(restoreId(h)))).status;
    },
    correct: (s) => s === 200,
    faulty: (s) => s === 404,
  },
  'restore-lookup-by-prefix': {
    observe: (h) => h.call('GET', paths.restore(restoreId(h).slice(0, -1))),
    correct: status(404),
    faulty: status(200),
  },
  'workspace-policy-substring-match': {
    observe: async (h) => [
      (
        await h.call('GET', paths.buckets, {
          as: 'primaryOnly',
          workspace: h.profile.workspaces.primary.slice(0, -1),
        })
      ).status,
      (await h.call('GET', paths.buckets, { as: 'primaryOnly', workspace: h.profile.workspaces.secondary }))
        .status,
    ],
    correct: (o) => JSON.stringify(o) === '[403,403]',
    faulty: (o) => JSON.stringify(o) === '[200,403]',
  },
  'nat-rule-member-names-case-insensitive': {
    observe: async (h) => {
      const answer = await h.call('PATCH', natRulePath(h), { json: { NOTE: 'in capitals' } });
      return [answer.status, (answer.json as { note?: unknown } | undefined)?.note ?? null];
    },
    correct: (o) => (o as unknown[])[0] === 200 && (o as unknown[])[1] !== 'in capitals',
    faulty: (o) => JSON.stringify(o) === '[200,"in capitals"]',
  },
  'guard-answers-after-dispatch': {
    // A release and a delete without a token, then the same by the full identity.
    observe: async (h) => [
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)), { authorization: null })).status,
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)))).status,
      (await h.call('DELETE', paths.gpuVm(deletableVm(h)), { as: 'noVmWrite', idempotencyKey: 'refused' }))
        .status,
      (await h.call('DELETE', paths.gpuVm(deletableVm(h)), { idempotencyKey: 'own' })).status,
    ],
    correct: (o) => JSON.stringify(o) === '[401,204,403,202]',
    faulty: (o) => JSON.stringify(o) === '[401,404,403,409]',
  },
  'release-removed-before-workspace-check': {
    observe: async (h) => [
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)), { workspace: secondary(h) })).status,
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)))).status,
    ],
    correct: (o) => JSON.stringify(o) === '[404,204]',
    faulty: (o) => JSON.stringify(o) === '[404,404]',
  },
  'delete-started-before-workspace-check': {
    observe: async (h) => [
      (
        await h.call('DELETE', paths.gpuVm(deletableVm(h)), {
          workspace: secondary(h),
          idempotencyKey: 'delete-elsewhere',
        })
      ).status,
      (await h.call('DELETE', paths.gpuVm(deletableVm(h)), { idempotencyKey: 'delete-own' })).status,
    ],
    correct: (o) => JSON.stringify(o) === '[404,202]',
    faulty: (o) => JSON.stringify(o) === '[404,409]',
  },
  'release-204-body-on-the-wire': {
    // What reaches the socket: the head, then (the fault) a body no 204 may have.
    observe: async (h) => {
      const url = new URL(
        `${h.url}${paths.reservedIp(reservedIp(h))}?workspace_id=${h.profile.workspaces.primary}`,
      );
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () =>
          socket.write(
            `DELETE ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${h.token('full')}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (chunk) => {
          text += String(chunk);
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      return raw.slice(raw.indexOf('\r\n\r\n') + 4);
    },
    correct: (o) => o === '',
    faulty: (o) => o === '{"released":true}',
  },
  'release-gateway-retry-404': {
    observe: async (h) => [
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)))).status,
      (await h.call('DELETE', paths.reservedIp(reservedIp(h)))).status,
    ],
    correct: (o) => JSON.stringify(o) === '[204,404]',
    // Released (a second release finds nothing), yet answered as never there.
    faulty: (o) => JSON.stringify(o) === '[404,404]',
  },
  'nat-rule-update-per-field-commit': {
    observe: async (h) => {
      const refused = await h.call('PATCH', natRulePath(h), {
        json: { note: 'half applied', external_port: 70_000 },
      });
      const after = jsonObject(await h.call('PATCH', natRulePath(h), { json: {} }));
      return [refused.status, after.note];
    },
    // The correct sandbox keeps a port past 65535 (bounds not shown) and the note with it.
    correct: (o) => JSON.stringify(o) === '[200,"half applied"]',
    faulty: (o) => JSON.stringify(o) === '[400,"half applied"]',
  },
  'backup-refused-schedule-keeps-policy': {
    observe: async (h) => [
      (
        await h.call('POST', paths.enableBackups(gpuVm(h)), {
          json: { schedule: { frequency: 'fortnightly' } },
        })
      ).status,
      (await h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} })).status,
    ],
    correct: (o) => JSON.stringify(o) === '[400,200]',
    faulty: (o) => JSON.stringify(o) === '[400,409]',
  },
  'backup-incremental-off-for-daily-full': {
    observe: async (h) =>
      jsonObject(
        await h.call('POST', paths.enableBackups(gpuVm(h)), {
          json: { full_backup_interval_days: 1, incremental_enabled: true },
        }),
      ).incremental_enabled,
    correct: (o) => o === true,
    faulty: (o) => o === false,
  },
  'workspace-id-header-overrides-query': {
    // An identity limited to the primary workspace names the secondary one in the tenant header.
    observe: async (h) => {
      const polluted = await h.call('GET', paths.buckets, {
        as: 'primaryOnly',
        headers: { 'x-workspace-id': secondary(h) },
      });
      const other = await h.call('GET', paths.buckets, { workspace: secondary(h) });
      return polluted.status === 200 && polluted.text === other.text;
    },
    correct: (servedOther) => servedOther === false,
    faulty: (servedOther) => servedOther === true,
  },
  'scope-skipped-on-path-case': {
    observe: (h) =>
      h.call(
        'DELETE',
        paths.reservedIp(reservedIp(h)).replace('/networking/reserved-ips/', '/NETWORKING/RESERVED-IPS/'),
        {
          as: 'noNetworkWrite',
        },
      ),
    correct: (a) => (a as Answer).status === 403 || (a as Answer).status === 404,
    faulty: status(204),
  },
  'scope-decided-on-raw-prefix': {
    observe: (h) =>
      h.call('DELETE', paths.reservedIp(reservedIp(h)).replace('/networking/', '/compute/../networking/'), {
        as: 'noNetworkWrite',
        rawPath: true,
      }),
    correct: (a) => (a as Answer).status === 403 || (a as Answer).status === 404,
    faulty: status(204),
  },
  'error-page-negotiated-html': {
    observe: (h) =>
      h.call('GET', paths.restore('rst-none'), {
        headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      }),
    correct: (a) => status(404)(a) && ((a as Answer).contentType ?? '').includes('json'),
    faulty: (a) => status(404)(a) && ((a as Answer).contentType ?? '').includes('text/html'),
  },
  'gateway-unpriced-plan-passes': {
    observe: async (h) =>
      (
        await h.call('POST', paths.cloudVms, {
          workspace: h.profile.workspaces.billingDenied ?? null,
          json: { ...createBody, plan_id: 'plan-std-4c-8g', cpu: 4, ram_mb: 8192 },
          idempotencyKey: 'unpriced',
        })
      ).status,
    correct: (code) => code !== 202,
    faulty: (code) => code === 202,
  },
  'idempotency-placeholder-replayed': raced({
    observe: async (h) => {
      const send = () => h.call('POST', paths.cloudVms, { json: createBody, idempotencyKey: 'together' });
      const answers = await Promise.all([send(), send()]);
      return answers.map((a) => jsonObject(a).operation_id === null);
    },
    correct: (o) => JSON.stringify(o) === '[false,false]',
    faulty: (o) => JSON.stringify(o) === '[false,true]',
  }),
  'nat-rule-duplicate-member-first-validated': {
    observe: async (h) => {
      const answer = await h.call('PATCH', natRulePath(h), {
        body: '{"external_port":2300,"external_port":"2300; DROP"}',
      });
      return [answer.status, jsonObject(answer).external_port];
    },
    // JSON.parse keeps the last copy, which the schema refuses.
    correct: (o) => (o as unknown[])[0] === 400,
    faulty: (o) => JSON.stringify(o) === '[200,"2300; DROP"]',
  },
};
