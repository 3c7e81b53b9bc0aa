import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxProfile } from '../src/defaultSandboxProfile.js';
import { SANDBOX_FIXTURES } from '../src/sandboxStore.js';
import { STORE_ROUND_TRIP_MS } from '../src/storeRoundTrip.js';
import { type VariantId, variantCatalogue } from '../src/variantCatalogue.js';
import {
  type Answer,
  type Harness,
  isUtcTimestamp,
  paths,
  responseSchemaValidator,
  startHarness,
} from './sandboxHarness.js';

/** Each variant: one observation, what the default sandbox shows and what the variant shows. */
interface VariantProbe {
  readonly observe: (h: Harness) => Promise<unknown>;
  readonly byDefault: (observation: unknown) => boolean;
  /** The variant's answer, which must also stay within what the document allows. */
  readonly withVariant: (observation: unknown) => boolean;
}

const answer = (o: unknown) => o as Answer;
const record = (o: unknown) => answer(o).json as Record<string, unknown>;
const createVm = (h: Harness, workspace: string | null) =>
  h.call('POST', paths.cloudVms, { json: { name: 'x' }, idempotencyKey: `k-${Math.random()}`, workspace });

const natRulePath = (h: Harness) => {
  const rule = h.profile.resources?.natRules?.[0];
  return paths.natRule(rule?.vpcId ?? '', rule?.natGatewayId ?? '', rule?.ruleId ?? '');
};
/** Two copies of one create in flight together, then a retry once both are answered. */
const overlappingCopies = async (h: Harness) => {
  const copy = () => h.call('POST', paths.cloudVms, { json: { name: 'x' }, idempotencyKey: 'overlap' });
  const started = performance.now();
  const copies = await Promise.all([copy(), copy()]);
  const elapsedMs = performance.now() - started;
  const retry = await copy();
  return {
    statuses: copies.map((a) => a.status).sort(),
    vmIds: [...new Set([...copies, retry].filter((a) => a.status === 202).map((a) => record(a).vm_id))],
    vms: h.sandbox.state.cloudVms.size,
    elapsedMs,
  };
};
/** Two updates of different fields of one rule in flight together, then the rule as it reads. */
const overlappingUpdates = async (h: Harness) => {
  const statuses = (
    await Promise.all([
      h.call('PATCH', natRulePath(h), { json: { note: 'first' } }),
      h.call('PATCH', natRulePath(h), { json: { name: 'second' } }),
    ])
  ).map((a) => a.status);
  const after = record(await h.call('PATCH', natRulePath(h), { json: {} }));
  return { statuses, note: after.note, name: after.name };
};
/**
 * Overlapping updates until one is refused, the rule put back between tries (at most 5): on a
 * busy machine two requests sent together may miss each other's 5 ms store round trip.
 */
const updatesUntilRefused = async (h: Harness) => {
  const before = record(await h.call('PATCH', natRulePath(h), { json: {} }));
  let observed = await overlappingUpdates(h);
  for (let tries = 1; tries < 5 && !observed.statuses.includes(409); tries++) {
    await h.call('PATCH', natRulePath(h), { json: { note: before.note, name: before.name } });
    observed = await overlappingUpdates(h);
  }
  return observed;
};
type Copies = Awaited<ReturnType<typeof overlappingCopies>>;
type Updates = Awaited<ReturnType<typeof overlappingUpdates>>;
const oneVm = (o: Copies) => o.vmIds.length === 1 && o.vms === 1;

const variantProbes: Record<VariantId, VariantProbe> = {
  'optional-fields-absent': {
    // The restore's null members (error_message while it is not failed).
    observe: async (h) => {
      const restoreId = h.profile.resources?.restoreIds?.[0] ?? '';
      const restore = await h.call('GET', paths.restore(restoreId));
      return Object.values(restore.json as Record<string, unknown>).filter((v) => v === null).length;
    },
    byDefault: (o) => (o as number) > 0,
    withVariant: (o) => o === 0,
  },
  'defaulted-fields-absent': {
    // The defaulted fields of the NAT rule, as the rule answers an empty update and then one
    // that sets them away from their defaults.
    observe: async (h) => {
      const defaulted = ['protocol', 'note', 'enabled'];
      const shown = (answer: { json: unknown }) =>
        defaulted.filter((field) => field in (answer.json as Record<string, unknown>)).join(',');
      const set = await h.call('PATCH', natRulePath(h), {
        json: { protocol: 'tcp', note: '', enabled: true },
      });
      const changed = await h.call('PATCH', natRulePath(h), {
        json: { protocol: 'udp', note: 'x', enabled: false },
      });
      return [shown(set), shown(changed)];
    },
    byDefault: (o) => JSON.stringify(o) === '["protocol,note,enabled","protocol,note,enabled"]',
    withVariant: (o) => JSON.stringify(o) === '["","protocol,note,enabled"]',
  },
  'retry-reports-current-status': {
    // A keyed create and its retry: the retry's status.
    observe: async (h) => {
      const send = () =>
        h.call('POST', paths.cloudVms, { json: { name: 'retry' }, idempotencyKey: 'retry-status' });
      const first = record(await send());
      const again = record(await send());
      return [first.status, again.status, again.operation_id === first.operation_id];
    },
    byDefault: (o) => JSON.stringify(o) === '["accepted","accepted",true]',
    withVariant: (o) => JSON.stringify(o) === '["accepted","running",true]',
  },
  'chunked-connection-close': {
    // How the bucket list is framed.
    observe: async (h) => {
      const response = await fetch(`${h.url}${paths.buckets}?workspace_id=${h.profile.workspaces.primary}`, {
        headers: { authorization: `Bearer ${h.token('full')}` },
      });
      await response.text();
      return [response.headers.get('content-length'), response.headers.get('connection')];
    },
    byDefault: (o) => (o as unknown[])[0] !== null && (o as unknown[])[1] !== 'close',
    withVariant: (o) => JSON.stringify(o) === '[null,"close"]',
  },
  'nat-internal-ip-in-vpc-range': {
    // An address inside the VPC's subnet, then one outside it.
    observe: async (h) =>
      [
        await h.call('PATCH', natRulePath(h), { json: { internal_ip: '10.0.1.40' } }),
        await h.call('PATCH', natRulePath(h), { json: { internal_ip: '10.0.1.200' } }),
      ].map((a) => a.status),
    byDefault: (o) => JSON.stringify(o) === '[200,200]',
    withVariant: (o) => JSON.stringify(o) === '[200,400]',
  },
  'backup-days-counted-from-1': {
    // A weekly schedule on day 0, then on day 7.
    observe: async (h) => {
      const vms = h.profile.resources?.gpuVmIds ?? [];
      const enable = (vmId: string, day: number) =>
        h.call('POST', paths.enableBackups(vmId), {
          json: { schedule: { frequency: 'weekly', day_of_week: day } },
        });
      return [(await enable(vms[0] ?? '', 0)).status, (await enable(vms[1] ?? '', 7)).status];
    },
    byDefault: (o) => JSON.stringify(o) === '[200,200]',
    withVariant: (o) => JSON.stringify(o) === '[400,200]',
  },
  'uuid-identifiers': {
    // The ids of a new create.
    observe: async (h) => {
      const record = (
        await h.call('POST', paths.cloudVms, { json: { name: 'x' }, idempotencyKey: `k-${Math.random()}` })
      ).json as { operation_id: string; vm_id: string };
      return [record.operation_id, record.vm_id];
    },
    byDefault: (o) => (o as string[]).every((id) => /^[a-z]+-[0-9a-f]{8}$/.test(id)),
    withVariant: (o) =>
      (o as string[]).every((id) =>
        /^[a-z]+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id),
      ),
  },
  'lenient-body-coercion': {
    // Ports and a boolean sent as text, the protocol in upper case: stored converted, typed.
    observe: async (h) => {
      const update = await h.call('PATCH', natRulePath(h), {
        json: { external_port: ' 8443 ', enabled: 'false', protocol: ' UDP' },
      });
      const rule = (await h.call('PATCH', natRulePath(h), { json: {} })).json as Record<string, unknown>;
      return [update.status, rule.external_port, rule.enabled, rule.protocol];
    },
    byDefault: (o) => (o as unknown[])[0] === 400,
    withVariant: (o) => JSON.stringify(o) === '[200,8443,false,"udp"]',
  },
  'repeated-workspace-id-first-wins': {
    // The primary workspace's list, asked with workspace_id given twice (primary first).
    observe: async (h) => {
      const twice = await h.call('GET', paths.buckets, {
        query: `workspace_id=${h.profile.workspaces.secondary}`,
      });
      const own = await h.call('GET', paths.buckets);
      return [twice.status, twice.text === own.text];
    },
    byDefault: (o) => JSON.stringify(o) === '[400,false]',
    withVariant: (o) => JSON.stringify(o) === '[200,true]',
  },
  'server-clock-ahead': {
    // Seconds from this machine's clock to a fresh submitted_at and to the answer's Date header.
    observe: async (h) => {
      const response = await fetch(`${h.url}${paths.cloudVms}?workspace_id=${h.profile.workspaces.primary}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.token('full')}`,
          'content-type': 'application/json',
          'x-idempotency-key': `k-${Math.random()}`,
        },
        body: JSON.stringify({ name: 'x' }),
      });
      const record = (await response.json()) as { submitted_at: string };
      const now = Date.now();
      return {
        timestamp: Math.round((Date.parse(record.submitted_at) - now) / 1000),
        dateHeader: Math.round((Date.parse(response.headers.get('date') ?? '') - now) / 1000),
      };
    },
    byDefault: (o) => {
      const { timestamp, dateHeader } = o as { timestamp: number; dateHeader: number };
      return Math.abs(timestamp) <= 2 && Math.abs(dateHeader) <= 2;
    },
    withVariant: (o) => {
      const { timestamp, dateHeader } = o as { timestamp: number; dateHeader: number };
      return Math.abs(timestamp - 90) <= 2 && Math.abs(dateHeader - 90) <= 2;
    },
  },
  'idempotency-keys-per-workspace': {
    // One key and body: a create in the primary workspace, then the same in the secondary one.
    observe: async (h) => {
      const send = (workspace: string) =>
        h.call('POST', paths.cloudVms, { json: { name: 'x' }, idempotencyKey: 'shared', workspace });
      const first = await send(h.profile.workspaces.primary);
      const second = await send(h.profile.workspaces.secondary);
      return [
        second.status,
        record(second).vm_id !== undefined && record(second).vm_id !== record(first).vm_id,
      ];
    },
    byDefault: (o) => JSON.stringify(o) === '[422,false]',
    withVariant: (o) => JSON.stringify(o) === '[202,true]',
  },
  'idempotency-in-flight-409': {
    // The copies meet only when the second arrives within the first's store round trip, which a
    // loaded machine does not promise: repeated on a reset sandbox until they do, at most 8 times.
    observe: async (h) => {
      let copies = await overlappingCopies(h);
      for (let attempt = 1; attempt < 8 && !copies.statuses.includes(409); attempt++) {
        h.sandbox.reset();
        copies = await overlappingCopies(h);
      }
      return copies;
    },
    byDefault: (o) => JSON.stringify((o as Copies).statuses) === '[202,202]' && oneVm(o as Copies),
    withVariant: (o) => JSON.stringify((o as Copies).statuses) === '[202,409]' && oneVm(o as Copies),
  },
  'writes-with-store-latency': {
    observe: async (h) => ({ copies: await overlappingCopies(h), updates: await overlappingUpdates(h) }),
    byDefault: (o) => {
      const { copies, updates } = o as { copies: Copies; updates: Updates };
      return oneVm(copies) && updates.note === 'first' && updates.name === 'second';
    },
    // As correct, and the copies were answered only after the store round trip.
    withVariant: (o) => {
      const { copies, updates } = o as { copies: Copies; updates: Updates };
      return (
        oneVm(copies) &&
        JSON.stringify(copies.statuses) === '[202,202]' &&
        copies.elapsedMs >= STORE_ROUND_TRIP_MS - 1 &&
        updates.note === 'first' &&
        updates.name === 'second'
      );
    },
  },
  'nat-update-empty-refused': {
    // An empty update, then one that sends a field: only the empty one is refused.
    observe: async (h) => {
      const empty = await h.call('PATCH', natRulePath(h), { json: {} });
      const noted = await h.call('PATCH', natRulePath(h), { json: { note: 'changed' } });
      return [empty.status, noted.status, record(noted).note, record(noted).name];
    },
    byDefault: (o) => JSON.stringify(o) === '[200,200,"changed","ssh-bastion-1"]',
    withVariant: (o) => JSON.stringify(o) === '[400,200,"changed","ssh-bastion-1"]',
  },
  'nat-rule-busy-after-change': {
    observe: async (h) => {
      const changed = await h.call('PATCH', natRulePath(h), { json: { note: 'busy now' } });
      const read = await h.call('PATCH', natRulePath(h), { json: {} });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const later = await h.call('PATCH', natRulePath(h), { json: {} });
      return [changed.status, read.status, later.status];
    },
    byDefault: (o) => JSON.stringify(o) === '[200,200,200]',
    withVariant: (o) => JSON.stringify(o) === '[200,409,200]',
  },
  'nat-rule-update-conflict-409': {
    observe: updatesUntilRefused,
    byDefault: (o) => JSON.stringify((o as Updates).statuses) === '[200,200]',
    // One update went through; the other was refused and changed nothing.
    withVariant: (o) => {
      const { statuses, note, name } = o as Updates;
      return (
        (JSON.stringify(statuses) === '[200,409]' && note === 'first' && name !== 'second') ||
        (JSON.stringify(statuses) === '[409,200]' && name === 'second' && note !== 'first')
      );
    },
  },
  'workspace-id-422': {
    observe: (h) => h.call('GET', paths.buckets, { workspace: '0' }),
    byDefault: (o) => answer(o).status === 400,
    withVariant: (o) => answer(o).status === 422 && typeof record(o).detail === 'string',
  },
  'billing-refusal-402': {
    observe: (h) => createVm(h, h.profile.workspaces.billingDenied ?? null),
    byDefault: (o) => answer(o).status === 403,
    withVariant: (o) => answer(o).status === 402 && typeof record(o).detail === 'string',
  },
  'billing-refusal-409': {
    observe: (h) => createVm(h, h.profile.workspaces.billingDenied ?? null),
    byDefault: (o) => answer(o).status === 403,
    withVariant: (o) => answer(o).status === 409 && typeof record(o).detail === 'string',
  },
  'rejected-tokens-403': {
    observe: async (h) => ({
      revoked: await h.call('GET', paths.buckets, { authorization: `Bearer ${h.profile.revokedToken}` }),
      other: await h.call('GET', paths.buckets, {
        authorization: `Bearer ${h.profile.otherEnvironmentToken}`,
      }),
    }),
    byDefault: (o) => {
      const { revoked, other } = o as { revoked: Answer; other: Answer };
      return revoked.status === 401 && other.status === 401;
    },
    withVariant: (o) => {
      const { revoked, other } = o as { revoked: Answer; other: Answer };
      return [revoked, other].every(
        (a) => a.status === 403 && typeof (a.json as { detail?: unknown }).detail === 'string',
      );
    },
  },
  'parameters-checked-before-auth': {
    // Breaks two rules at once: any status either rule allows is correct (A-CHECK-ORDER).
    observe: (h) => h.call('GET', paths.buckets, { workspace: '0', authorization: null }),
    byDefault: (o) => answer(o).status === 401,
    withVariant: (o) => answer(o).status === 400,
  },
  'extra-record-fields': {
    observe: (h) => h.call('GET', paths.restore(h.profile.resources?.restoreIds?.[0] ?? '')),
    byDefault: (o) => !('request_id' in record(o)),
    withVariant: (o) =>
      'request_id' in record(o) && responseSchemaValidator('CloudVmRestore')(answer(o).json),
  },
  'backup-enable-twice-returns-policy': {
    observe: async (h) => {
      const path = paths.enableBackups(h.profile.resources?.gpuVmIds?.[0] ?? '');
      const firstAnswer = await h.call('POST', path, { json: {} });
      const secondAnswer = await h.call('POST', path, { json: { retention_days: 30 } });
      return { first: firstAnswer.json, second: secondAnswer };
    },
    byDefault: (o) => (o as { second: Answer }).second.status === 409,
    withVariant: (o) => {
      const { first, second } = o as { first: unknown; second: Answer };
      return second.status === 200 && JSON.stringify(second.json) === JSON.stringify(first);
    },
  },
  'timestamps-with-offset': {
    observe: (h) => createVm(h, h.profile.workspaces.primary),
    byDefault: (o) => String(record(o).submitted_at).endsWith('Z'),
    withVariant: (o) =>
      String(record(o).submitted_at).endsWith('+00:00') && isUtcTimestamp(record(o).submitted_at),
  },
  'timestamps-offset-hours': {
    observe: (h) => createVm(h, h.profile.workspaces.primary),
    byDefault: (o) => String(record(o).submitted_at).endsWith('Z'),
    withVariant: (o) => /T\d\d:\d\d:\d\d\.\d{3}\+00$/.test(String(record(o).submitted_at)),
  },
  'timestamps-nanoseconds': {
    observe: (h) => createVm(h, h.profile.workspaces.primary),
    byDefault: (o) => /\.\d{3}Z$/.test(String(record(o).submitted_at)),
    withVariant: (o) =>
      /\.\d{9}Z$/.test(String(record(o).submitted_at)) && isUtcTimestamp(record(o).submitted_at),
  },
  'released-ip-conflict': {
    observe: async (h) => {
      const path = paths.reservedIp(h.profile.resources?.releasableReservedIpIds?.[0] ?? '');
      await h.call('DELETE', path);
      return h.call('DELETE', path);
    },
    byDefault: (o) => answer(o).status === 404,
    withVariant: (o) => answer(o).status === 409,
  },
  'deleted-vm-gone-404': {
    observe: async (h) => {
      const vmId = h.profile.resources?.deletableGpuVmIds?.[0] ?? '';
      const first = await h.call('DELETE', paths.gpuVm(vmId), { idempotencyKey: 'first' });
      const again = await h.call('DELETE', paths.gpuVm(vmId), { idempotencyKey: 'again' });
      const enable = await h.call('POST', paths.enableBackups(vmId), { json: {} });
      return [first.status, again.status, enable.status];
    },
    byDefault: (o) => JSON.stringify(o) === '[202,409,409]',
    withVariant: (o) => JSON.stringify(o) === '[202,404,404]',
  },
  'cross-workspace-resource-403': {
    // A restore of the primary workspace through the secondary one, by a token that may not
    // access the primary and by one that may; then an id no workspace holds.
    observe: async (h) => {
      const path = paths.restore(h.profile.resources?.restoreIds?.[0] ?? '');
      const { secondary } = h.profile.workspaces;
      const barred = await h.call('GET', path, { workspace: secondary, as: 'secondaryOnly' });
      const allowed = await h.call('GET', path, { workspace: secondary });
      const nowhere = await h.call('GET', paths.restore('rst-none'));
      return [barred.status, allowed.status, nowhere.status, typeof record(barred).detail];
    },
    byDefault: (o) => JSON.stringify(o) === '[404,404,404,"string"]',
    withVariant: (o) => JSON.stringify(o) === '[403,404,404,"string"]',
  },
};

const profile = defaultSandboxProfile();
let defaults: Harness;
beforeAll(async () => {
  defaults = await startHarness({ profile });
});
afterAll(() => defaults.close());

describe('the variant catalogue', () => {
  it('has at least 5 variants, each tied to a gap or assumption, and a probe for each', () => {
    expect(variantCatalogue.length).toBeGreaterThanOrEqual(5);
    for (const variant of variantCatalogue) expect(variant.gap).toMatch(/^(NS|A)-[A-Z-]+$/);
    expect(Object.keys(variantProbes).sort()).toEqual(variantCatalogue.map((variant) => variant.id).sort());
  });
});

describe.each(variantCatalogue.map((variant) => variant.id))('variant %s', (variantId) => {
  const probe = variantProbes[variantId];

  it('differs from the default sandbox in the intended way', async () => {
    defaults.sandbox.reset();
    const byDefault = await probe.observe(defaults);
    expect(probe.byDefault(byDefault), JSON.stringify(byDefault)).toBe(true);
    const varied = await startHarness({ profile, variant: variantId });
    try {
      const observation = await probe.observe(varied);
      expect(probe.withVariant(observation), JSON.stringify(observation)).toBe(true);
    } finally {
      await varied.close();
    }
  });

  it('still answers a valid request as the document requires', async () => {
    const varied = await startHarness({ profile, variant: variantId });
    try {
      const rule = profile.resources?.natRules?.[0];
      const patched = await varied.call(
        'PATCH',
        paths.natRule(rule?.vpcId ?? '', rule?.natGatewayId ?? '', rule?.ruleId ?? ''),
        {
          json: { note: 'variant' },
        },
      );
      expect(patched.status).toBe(200);
      expect(responseSchemaValidator('NatPortForwardingRule')(patched.json)).toBe(true);
      const busy = paths.natRule(
        SANDBOX_FIXTURES.vpcId,
        SANDBOX_FIXTURES.natGatewayId,
        SANDBOX_FIXTURES.deletingRuleId,
      );
      expect((await varied.call('PATCH', busy, { json: {} })).status).toBe(409);
      expect((await varied.call('GET', paths.buckets, { authorization: null })).status).toBe(401);
    } finally {
      await varied.close();
    }
  });
});
