import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_FIXTURES } from '../src/sandboxStore.js';
import {
  type Harness,
  isUtcTimestamp,
  paths,
  responseSchemaValidator,
  startHarness,
} from './sandboxHarness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.sandbox.reset());

const resources = () => h.profile.resources ?? {};
const first = <T>(list: readonly T[] | undefined): T => {
  const value = list?.[0];
  if (value === undefined) throw new Error('the default profile lacks a resource');
  return value;
};

describe('checkResourceEligibility', () => {
  it('answers allowed true for the primary workspace and the profile SKU, valid against the spec', async () => {
    const answer = await h.call('POST', paths.eligibility, {
      json: { sku_code: h.profile.billing.skuCode },
      as: 'noVmWrite',
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ allowed: true });
    expect(responseSchemaValidator('BillingEligibilityDecision')(answer.json)).toBe(true);
  });

  it('answers allowed false in the billing-denied workspace and for an unknown SKU', async () => {
    const denied = await h.call('POST', paths.eligibility, {
      json: { sku_code: h.profile.billing.skuCode },
      workspace: h.profile.workspaces.billingDenied ?? null,
    });
    expect(denied.json).toEqual({ allowed: false });
    const unknownSku = await h.call('POST', paths.eligibility, { json: { sku_code: 'no-such-sku' } });
    expect(unknownSku.json).toEqual({ allowed: false });
  });

  it('needs billing.read (403 without it) and refuses a body of the wrong type with 400', async () => {
    expect(
      (await h.call('POST', paths.eligibility, { json: { sku_code: 'x' }, as: 'noBillingRead' })).status,
    ).toBe(403);
    const wrongType = await h.call('POST', paths.eligibility, { json: { sku_code: 5 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json).toEqual({ detail: expect.stringContaining('sku_code') });
  });
});

describe('listBuckets', () => {
  it('returns a JSON array of the workspace buckets', async () => {
    const answer = await h.call('GET', paths.buckets);
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.json)).toBe(true);
    expect(responseSchemaValidator('BucketList')(answer.json)).toBe(true);
    const other = await h.call('GET', paths.buckets, {
      workspace: h.profile.workspaces.billingDenied ?? null,
    });
    expect(other.json).toEqual([]);
  });
});

describe('createCloudVm', () => {
  const body = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };

  it('answers 202 with an acceptance record and replays it for the same key without a second VM', async () => {
    const created = await h.call('POST', paths.cloudVms, { json: body, idempotencyKey: 'key-1' });
    expect(created.status).toBe(202);
    expect(responseSchemaValidator('OperationAcceptance')(created.json)).toBe(true);
    const record = created.json as Record<string, unknown>;
    expect(record.status).toBe('accepted');
    expect(isUtcTimestamp(record.submitted_at)).toBe(true);
    const replay = await h.call('POST', paths.cloudVms, { json: body, idempotencyKey: 'key-1' });
    expect(replay.status).toBe(202);
    expect(replay.json).toEqual(created.json);
    expect(h.sandbox.state.cloudVms.size).toBe(1);
    expect(h.sandbox.state.operations.size).toBe(1);
  });

  it('refuses a reused key with a different body (422) and a missing key (400), accepting nothing', async () => {
    await h.call('POST', paths.cloudVms, { json: body, idempotencyKey: 'key-2' });
    const reused = await h.call('POST', paths.cloudVms, {
      json: { ...body, cpu: 4 },
      idempotencyKey: 'key-2',
    });
    expect(reused.status).toBe(422);
    const missing = await h.call('POST', paths.cloudVms, { json: body });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ detail: expect.stringContaining('X-Idempotency-Key') });
    expect(h.sandbox.state.operations.size).toBe(1);
  });

  it('is refused by the gateway in the billing-denied workspace with a JSON detail and no operation', async () => {
    const refused = await h.call('POST', paths.cloudVms, {
      json: body,
      idempotencyKey: 'key-3',
      workspace: h.profile.workspaces.billingDenied ?? null,
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ detail: expect.stringContaining('Billing') });
    expect(h.sandbox.state.operations.size).toBe(0);
  });

  it('needs vm.write but not billing.read', async () => {
    expect(
      (await h.call('POST', paths.cloudVms, { json: body, idempotencyKey: 'k4', as: 'noVmWrite' })).status,
    ).toBe(403);
    expect(
      (await h.call('POST', paths.cloudVms, { json: body, idempotencyKey: 'k5', as: 'noBillingRead' }))
        .status,
    ).toBe(202);
  });
});

describe('enableGpuVmBackups', () => {
  it('applies the documented defaults to an empty body', async () => {
    const vmId = first(resources().gpuVmIds);
    const answer = await h.call('POST', paths.enableBackups(vmId), { json: {} });
    expect(answer.status).toBe(200);
    expect(responseSchemaValidator('BackupPolicy')(answer.json)).toBe(true);
    expect(answer.json).toMatchObject({
      vm_id: vmId,
      enabled: true,
      retention_days: 7,
      full_backup_interval_days: 7,
      incremental_enabled: true,
      schedule: { timezone: 'UTC', hour: 20, minute: 0, window_minutes: 30 },
    });
  });

  it('keeps sent values and defaults only the rest', async () => {
    const answer = await h.call('POST', paths.enableBackups(first(resources().gpuVmIds)), {
      json: { retention_days: 14, schedule: { frequency: 'daily', hour: 2 } },
    });
    expect(answer.json).toMatchObject({
      retention_days: 14,
      full_backup_interval_days: 7,
      schedule: { frequency: 'daily', hour: 2, minute: 0, timezone: 'UTC', window_minutes: 30 },
    });
  });

  it('answers 409 the second time, 404 for an unknown VM and 400 for wrong types', async () => {
    const vmId = first(resources().gpuVmIds);
    await h.call('POST', paths.enableBackups(vmId), { json: {} });
    expect((await h.call('POST', paths.enableBackups(vmId), { json: {} })).status).toBe(409);
    expect((await h.call('POST', paths.enableBackups('vm-none'), { json: {} })).status).toBe(404);
    const wrong = await h.call('POST', paths.enableBackups(vmId), { json: { incremental_enabled: 'yes' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ detail: expect.stringContaining('incremental_enabled') });
  });

  it('answers 404 for a VM of the primary workspace asked for in another workspace', async () => {
    const answer = await h.call('POST', paths.enableBackups(first(resources().gpuVmIds)), {
      json: {},
      workspace: h.profile.workspaces.secondary,
    });
    expect(answer.status).toBe(404);
  });
});

describe('deleteGpuVm', () => {
  it('answers 202 naming the VM, replays the same key, and 409 for a new key while deleting', async () => {
    const vmId = first(resources().deletableGpuVmIds);
    const accepted = await h.call('DELETE', paths.gpuVm(vmId), { idempotencyKey: 'del-1' });
    expect(accepted.status).toBe(202);
    expect(accepted.json).toMatchObject({ vm_id: vmId, status: 'accepted' });
    expect(responseSchemaValidator('OperationAcceptance')(accepted.json)).toBe(true);
    expect((await h.call('DELETE', paths.gpuVm(vmId), { idempotencyKey: 'del-1' })).json).toEqual(
      accepted.json,
    );
    expect((await h.call('DELETE', paths.gpuVm(vmId), { idempotencyKey: 'del-2' })).status).toBe(409);
    expect(h.sandbox.state.operations.size).toBe(1);
  });

  it('answers 404 for an unknown VM and 400 without a key', async () => {
    expect((await h.call('DELETE', paths.gpuVm('vm-none'), { idempotencyKey: 'del-3' })).status).toBe(404);
    expect((await h.call('DELETE', paths.gpuVm(first(resources().deletableGpuVmIds)))).status).toBe(400);
  });
});

describe('getCloudVmSnapshotRestore', () => {
  it('returns the restore record, valid against the spec, and 404 for an unknown id', async () => {
    const restoreId = first(resources().restoreIds);
    const answer = await h.call('GET', paths.restore(restoreId), { as: 'noVmWrite' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ restore_id: restoreId });
    expect(responseSchemaValidator('CloudVmRestore')(answer.json)).toBe(true);
    expect((await h.call('GET', paths.restore('rst-none'))).status).toBe(404);
    expect((await h.call('GET', paths.restore(restoreId), { as: 'noVmRead' })).status).toBe(403);
  });
});

describe('updateNatPortForwardingRule', () => {
  const rulePath = () => {
    const rule = first(resources().natRules);
    return paths.natRule(rule.vpcId, rule.natGatewayId, rule.ruleId);
  };

  it('updates only the sent fields and advances updated_at', async () => {
    const before = h.sandbox.state.natRules.values().next().value;
    const snapshot = structuredClone(before);
    const answer = await h.call('PATCH', rulePath(), { json: { note: 'maintenance', enabled: false } });
    expect(answer.status).toBe(200);
    expect(responseSchemaValidator('NatPortForwardingRule')(answer.json)).toBe(true);
    const record = answer.json as Record<string, unknown>;
    expect(record).toMatchObject({
      ...snapshot,
      note: 'maintenance',
      enabled: false,
      updated_at: expect.any(String),
    });
    expect(Date.parse(record.updated_at as string)).toBeGreaterThan(Date.parse(snapshot?.updated_at ?? ''));
  });

  it('answers 400 for bad types and enum values, 404 for unknown ids, 409 while provisioning or deleting', async () => {
    expect((await h.call('PATCH', rulePath(), { json: { protocol: 'icmp' } })).status).toBe(400);
    expect((await h.call('PATCH', rulePath(), { json: { external_port: '22' } })).status).toBe(400);
    expect(
      (await h.call('PATCH', paths.natRule('vpc-0001', 'natgw-0001', 'pfr-none'), { json: {} })).status,
    ).toBe(404);
    for (const ruleId of [SANDBOX_FIXTURES.provisioningRuleId, SANDBOX_FIXTURES.deletingRuleId]) {
      const path = paths.natRule(SANDBOX_FIXTURES.vpcId, SANDBOX_FIXTURES.natGatewayId, ruleId);
      expect((await h.call('PATCH', path, { json: { note: 'x' } })).status).toBe(409);
    }
  });
});

describe('releaseReservedIp', () => {
  it('answers 204 with no body, then 404 for the released IP; 409 for an assigned IP', async () => {
    const ipId = first(resources().releasableReservedIpIds);
    const released = await h.call('DELETE', paths.reservedIp(ipId));
    expect(released.status).toBe(204);
    expect(released.text).toBe('');
    expect((await h.call('DELETE', paths.reservedIp(ipId))).status).toBe(404);
    expect((await h.call('DELETE', paths.reservedIp(SANDBOX_FIXTURES.assignedReservedIpId))).status).toBe(
      409,
    );
    expect((await h.call('DELETE', paths.reservedIp(ipId), { as: 'noNetworkWrite' })).status).toBe(403);
  });
});

describe('reset', () => {
  it('brings released, deleted and enabled resources back', async () => {
    const ipId = first(resources().releasableReservedIpIds);
    await h.call('DELETE', paths.reservedIp(ipId));
    h.sandbox.reset();
    expect((await h.call('DELETE', paths.reservedIp(ipId))).status).toBe(204);
  });
});

describe('routing and transport', () => {
  it('answers unknown paths with 404, other methods with 405 and Allow, always with JSON detail', async () => {
    const unknown = await h.call('GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.contentType).toBe('application/json');
    const response = await fetch(`${h.url}${paths.buckets}?workspace_id=1042`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.json()).toEqual({ detail: expect.any(String) });
  });

  it('serves only under /v1', async () => {
    const response = await fetch(`${h.url.replace(/\/v1$/, '')}${paths.buckets}?workspace_id=1042`, {
      headers: { authorization: `Bearer ${h.token('full')}` },
    });
    expect(response.status).toBe(404);
  });
});
