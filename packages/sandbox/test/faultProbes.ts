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
  'acceptance-submitted-at-not-utc': {
    observe: (h) => createVm(h),
    correct: (a) => isUtcTimestamp(acceptance(a).submitted_at),
    faulty: (a) =>
      typeof acceptance(a).submitted_at === 'string' && !isUtcTimestamp(acceptance(a).submitted_at),
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
  'gateway-ignores-billing-decision': {
    observe: (h) => createVm(h, { workspace: h.profile.workspaces.billingDenied ?? null }),
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
  'backup-policy-missing-storage-backend': {
    observe: (h) => h.call('POST', paths.enableBackups(gpuVm(h)), { json: {} }),
    correct: (a) => responseSchemaValidator('BackupPolicy')((a as Answer).json),
    faulty: (a) => status(200)(a) && !('storage_backend' in jsonObject(a)),
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
};
