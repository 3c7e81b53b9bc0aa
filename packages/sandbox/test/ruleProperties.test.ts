import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/createSandbox.js';
import { defaultSandboxProfile } from '../src/defaultSandboxProfile.js';
import { loadSpecContract } from '../src/specContract.js';
import {
  type Answer,
  type CallOptions,
  type Harness,
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

const scopeNames = [...loadSpecContract().scopeNames];

/** One valid, authorised request per operation (before the rule under test is varied). */
interface OperationCase {
  readonly name: string;
  readonly scope: string;
  readonly send: (options: CallOptions) => Promise<Answer>;
}

const operationCases = (): OperationCase[] => {
  const r = h.profile.resources ?? {};
  const rule = r.natRules?.[0];
  return [
    {
      name: 'checkResourceEligibility',
      scope: 'billing.read',
      send: (o) => h.call('POST', paths.eligibility, { json: { sku_code: h.profile.billing.skuCode }, ...o }),
    },
    { name: 'listBuckets', scope: 'object-storage.read', send: (o) => h.call('GET', paths.buckets, o) },
    {
      name: 'createCloudVm',
      scope: 'vm.write',
      send: (o) =>
        h.call('POST', paths.cloudVms, { json: { name: 'p' }, idempotencyKey: crypto.randomUUID(), ...o }),
    },
    {
      name: 'enableGpuVmBackups',
      scope: 'vm.write',
      send: (o) => h.call('POST', paths.enableBackups(r.gpuVmIds?.[0] ?? ''), { json: {}, ...o }),
    },
    {
      name: 'deleteGpuVm',
      scope: 'vm.write',
      send: (o) =>
        h.call('DELETE', paths.gpuVm(r.deletableGpuVmIds?.[0] ?? ''), {
          idempotencyKey: crypto.randomUUID(),
          ...o,
        }),
    },
    {
      name: 'getCloudVmSnapshotRestore',
      scope: 'vm.read',
      send: (o) => h.call('GET', paths.restore(r.restoreIds?.[0] ?? ''), o),
    },
    {
      name: 'updateNatPortForwardingRule',
      scope: 'network.write',
      send: (o) =>
        h.call('PATCH', paths.natRule(rule?.vpcId ?? '', rule?.natGatewayId ?? '', rule?.ruleId ?? ''), {
          json: {},
          ...o,
        }),
    },
    {
      name: 'releaseReservedIp',
      scope: 'network.write',
      send: (o) => h.call('DELETE', paths.reservedIp(r.releasableReservedIpIds?.[0] ?? ''), o),
    },
  ];
};

const operationIndex = fc.integer({ min: 0, max: 7 });
const isJsonError = (a: Answer) =>
  a.contentType === 'application/json' && typeof (a.json as { detail?: unknown })?.detail === 'string';

describe('workspace_id (WS-1, WS-2, WS-3)', () => {
  const invalidWorkspaceId = fc.oneof(
    fc.constantFrom('0', '00', '-0', '+0'),
    fc.integer({ min: 1, max: 1e9 }).map((n) => `-${n}`),
    fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/^[0-9]*[1-9][0-9]*$/.test(s)),
    fc
      .double({ noNaN: true, min: 0.001, max: 1e6 })
      .filter((n) => !Number.isInteger(n))
      .map(String),
  );

  it('WS-2: zero, negative and non-numeric workspace_id are rejected with a JSON 4xx on every operation', async () => {
    await fc.assert(
      fc.asyncProperty(operationIndex, invalidWorkspaceId, async (index, workspace) => {
        const answer = await (operationCases()[index] as OperationCase).send({ workspace });
        expect(answer.status).toBe(400);
        expect(isJsonError(answer)).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it('WS-1: a request without workspace_id is rejected with a JSON 4xx on every operation', async () => {
    for (const operation of operationCases()) {
      const answer = await operation.send({ workspace: null });
      expect(answer.status, operation.name).toBe(400);
    }
  });

  it('WS-3: a valid workspace_id of the organization is never rejected for its form', async () => {
    const organization = [
      h.profile.workspaces.primary,
      h.profile.workspaces.secondary,
      h.profile.workspaces.billingDenied ?? '1044',
    ];
    await fc.assert(
      fc.asyncProperty(operationIndex, fc.constantFrom(...organization), async (index, workspace) => {
        h.sandbox.reset();
        const answer = await (operationCases()[index] as OperationCase).send({ workspace });
        expect(answer.status).not.toBe(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});

describe('authentication (AUTH-1, AUTH-2, AUTH-3, ENV-1)', () => {
  it('AUTH-1/AUTH-2/AUTH-3/ENV-1: a missing, malformed, unknown, revoked or other-environment credential gets a JSON 401 on every operation', async () => {
    const badAuthorization = fc.oneof(
      fc.constant(null),
      fc.constant(''),
      fc.constant('Bearer'),
      fc.constant('Bearer '),
      fc.constant(`Basic ${Buffer.from(`u:${h.token('full')}`).toString('base64')}`),
      fc.constant(h.token('full')),
      fc.constant(`Token ${h.token('full')}`),
      fc.constant(`Bearer ${h.profile.revokedToken}`),
      fc.constant(`Bearer ${h.profile.otherEnvironmentToken}`),
      fc.constant(`Bearer ${h.token('full').replace('svc_dev_key_', 'svc_prod_key_')}`),
      fc.stringMatching(/^[A-Za-z0-9_]{1,40}$/).map((secret) => `Bearer svc_dev_key_${secret}`),
      fc.stringMatching(/^[!-~]{1,40}$/).map((token) => `Bearer ${token}`),
    );
    await fc.assert(
      fc.asyncProperty(operationIndex, badAuthorization, async (index, authorization) => {
        const answer = await (operationCases()[index] as OperationCase).send({ authorization });
        expect(answer.status).toBe(401);
        expect(isJsonError(answer)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe('scopes and workspace policies (SCOPE-1, SCOPE-2, POLICY-1, POLICY-2, BILL-5)', () => {
  it('SCOPE-1/SCOPE-2: a token is refused with 403 exactly when it lacks the operation scope', async () => {
    await fc.assert(
      fc.asyncProperty(operationIndex, fc.subarray(scopeNames), async (index, scopes) => {
        const base = defaultSandboxProfile();
        const profile = {
          ...base,
          identities: {
            ...base.identities,
            probe: { token: 'svc_dev_key_probe', scopes, workspaces: 'all' as const },
          },
        };
        const harness = await startHarness({ profile });
        try {
          const operation = operationCases()[index] as OperationCase;
          const answer = await harnessSend(harness, operation.name, 'probe');
          if (scopes.includes(operation.scope)) expect([401, 403]).not.toContain(answer.status);
          else expect(answer.status).toBe(403);
        } finally {
          await harness.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('POLICY-1/POLICY-2: a specific-workspaces token gets 403 outside its list, an entire-organization token never does', async () => {
    const organization = [
      h.profile.workspaces.primary,
      h.profile.workspaces.secondary,
      h.profile.workspaces.billingDenied ?? '1044',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(organization, { minLength: 1 }),
        fc.constantFrom(...organization),
        fc.boolean(),
        async (allowed, workspace, entireOrganization) => {
          const base = defaultSandboxProfile();
          const identity = {
            token: 'svc_dev_key_policy',
            scopes: 'all' as const,
            workspaces: entireOrganization ? ('all' as const) : allowed,
          };
          const harness = await startHarness({
            profile: { ...base, identities: { ...base.identities, policy: identity } },
          });
          try {
            const answer = await harness.call('GET', paths.buckets, { as: 'policy', workspace });
            expect(answer.status).toBe(entireOrganization || allowed.includes(workspace) ? 200 : 403);
          } finally {
            await harness.close();
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});

/** The operation cases, sent to another harness by identity name. */
async function harnessSend(harness: Harness, operationName: string, as: string): Promise<Answer> {
  const saved = h;
  h = harness;
  try {
    return await (operationCases().find((c) => c.name === operationName) as OperationCase).send({ as });
  } finally {
    h = saved;
  }
}

describe('idempotency (IDEM-1, IDEM-2)', () => {
  const createBody = fc.record(
    {
      name: fc.string({ maxLength: 20 }),
      plan_id: fc.string({ maxLength: 20 }),
      template_id: fc.string({ maxLength: 20 }),
      os_distro: fc.constantFrom('ubuntu', 'debian', 'rocky'),
      os_type: fc.constantFrom('linux', 'windows'),
      cpu: fc.integer({ min: 1, max: 64 }),
      ram_mb: fc.integer({ min: 512, max: 262144 }),
    },
    { requiredKeys: [] },
  );

  it('IDEM-2: replaying a create with the same key and body returns the same record and accepts one operation', async () => {
    await fc.assert(
      fc.asyncProperty(createBody, fc.uuid(), fc.integer({ min: 1, max: 3 }), async (json, key, replays) => {
        h.sandbox.reset();
        const original = await h.call('POST', paths.cloudVms, { json, idempotencyKey: key });
        expect(original.status).toBe(202);
        for (let i = 0; i < replays; i++) {
          const replay = await h.call('POST', paths.cloudVms, { json, idempotencyKey: key });
          expect(replay.status).toBe(202);
          expect(replay.json).toEqual(original.json);
        }
        expect(h.sandbox.state.operations.size).toBe(1);
        expect(h.sandbox.state.cloudVms.size).toBe(1);
      }),
      { numRuns: 40 },
    );
  });

  it('IDEM-1: a create or delete without X-Idempotency-Key is rejected with 4xx and accepts nothing', async () => {
    await fc.assert(
      fc.asyncProperty(createBody, fc.boolean(), async (json, create) => {
        h.sandbox.reset();
        const vmId = h.profile.resources?.deletableGpuVmIds?.[0] ?? '';
        const answer = create
          ? await h.call('POST', paths.cloudVms, { json })
          : await h.call('DELETE', paths.gpuVm(vmId));
        expect(answer.status).toBe(400);
        expect(h.sandbox.state.operations.size).toBe(0);
      }),
      { numRuns: 30 },
    );
  });
});

describe('NAT rule partial update (PATCH-1, ENUM-1, RESP-1)', () => {
  const update = fc.record(
    {
      name: fc.string({ maxLength: 30 }),
      protocol: fc.constantFrom('tcp', 'udp'),
      external_port: fc.integer({ min: 1, max: 65535 }),
      internal_ip: fc.ipV4(),
      internal_port: fc.integer({ min: 1, max: 65535 }),
      note: fc.string({ maxLength: 40 }),
      enabled: fc.boolean(),
    },
    { requiredKeys: [] },
  );

  it('PATCH-1: a partial update changes the sent fields, keeps the others, and answers a valid rule', async () => {
    const rule = h.profile.resources?.natRules?.[0];
    const path = paths.natRule(rule?.vpcId ?? '', rule?.natGatewayId ?? '', rule?.ruleId ?? '');
    await fc.assert(
      fc.asyncProperty(fc.array(update, { minLength: 1, maxLength: 4 }), async (updates) => {
        h.sandbox.reset();
        let expected = (await h.call('PATCH', path, { json: {} })).json as Record<string, unknown>;
        for (const body of updates) {
          const answer = await h.call('PATCH', path, { json: body });
          expect(answer.status).toBe(200);
          expect(responseSchemaValidator('NatPortForwardingRule')(answer.json)).toBe(true);
          const { updated_at: _updated, ...rest } = answer.json as Record<string, unknown>;
          const { updated_at: _previous, ...expectedRest } = { ...expected, ...body } as Record<
            string,
            unknown
          >;
          expect(rest).toEqual(expectedRest);
          expected = answer.json as Record<string, unknown>;
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('backup defaults (BACKUP-1)', () => {
  const schedule = fc.record(
    {
      frequency: fc.constantFrom('hourly', 'daily', 'weekly'),
      timezone: fc.constantFrom('UTC', 'Europe/Berlin'),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      day_of_week: fc.option(fc.integer({ min: 0, max: 6 })),
      window_minutes: fc.integer({ min: 1, max: 240 }),
    },
    { requiredKeys: [] },
  );
  const body = fc.record(
    {
      schedule,
      retention_days: fc.integer({ min: 1, max: 365 }),
      full_backup_interval_days: fc.integer({ min: 1, max: 30 }),
      incremental_enabled: fc.boolean(),
      requested_by: fc.string({ maxLength: 10 }),
    },
    { requiredKeys: [] },
  );

  it('BACKUP-1: every field left out of enable-backups takes its documented default', async () => {
    const vmId = h.profile.resources?.gpuVmIds?.[0] ?? '';
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        h.sandbox.reset();
        const answer = await h.call('POST', paths.enableBackups(vmId), { json });
        expect(answer.status).toBe(200);
        expect(responseSchemaValidator('BackupPolicy')(answer.json)).toBe(true);
        const policy = answer.json as Record<string, unknown>;
        expect(policy.retention_days).toBe(json.retention_days ?? 7);
        expect(policy.full_backup_interval_days).toBe(json.full_backup_interval_days ?? 7);
        expect(policy.incremental_enabled).toBe(json.incremental_enabled ?? true);
        expect(policy.schedule).toMatchObject({
          timezone: json.schedule?.timezone ?? 'UTC',
          hour: json.schedule?.hour ?? 20,
          minute: json.schedule?.minute ?? 0,
          window_minutes: json.schedule?.window_minutes ?? 30,
        });
      }),
      { numRuns: 60 },
    );
  });
});

describe('errors (ERR-1, ERR-3)', () => {
  it('ERR-1/ERR-3: bodies of the wrong type get a JSON 400 with a detail naming the field', async () => {
    const vmId = h.profile.resources?.gpuVmIds?.[0] ?? '';
    const wrongValue = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.double(),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('retention_days', 'full_backup_interval_days', 'incremental_enabled'),
        wrongValue,
        async (field, value) => {
          fc.pre(!(field === 'incremental_enabled' && typeof value === 'boolean'));
          fc.pre(!(field !== 'incremental_enabled' && typeof value === 'number' && Number.isInteger(value)));
          const answer = await h.call('POST', paths.enableBackups(vmId), { json: { [field]: value } });
          expect(answer.status).toBe(400);
          expect(isJsonError(answer)).toBe(true);
          expect((answer.json as { detail: string }).detail).toContain(field);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('creates each sandbox from a profile alone (no shared state between sandboxes)', () => {
    const a = createSandbox({ profile: defaultSandboxProfile() });
    const b = createSandbox({ profile: defaultSandboxProfile() });
    a.state.reservedIps.clear();
    expect(b.state.reservedIps.size).toBeGreaterThan(0);
  });
});
