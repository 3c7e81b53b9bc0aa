import type { Client } from 'openapi-fetch';
import { describe, expectTypeOf, test } from 'vitest';
import type {
  BackupPolicy,
  BillingEligibilityDecision,
  CloudVmRestore,
  EnableGpuVmBackupsRequest,
  NatPortForwardingRule,
  OperationAcceptance,
  paths,
  UpdateNatPortForwardingRuleRequest,
} from '../src/index.js';

// Every `@ts-expect-error` below must be needed: if a type became looser, the directive would be
// unused, tsc would report it, and this file would fail under `vitest run` (typecheck enabled).
declare const api: Client<paths>;

describe('the generated paths, as openapi-fetch consumes them', () => {
  test('a documented path and method with every required parameter compiles', () => {
    expectTypeOf(
      api.GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
        params: { path: { restore_id: 'rst-2b81c4d0' }, query: { workspace_id: '1042' } },
      }),
    ).resolves.toHaveProperty('data');
    expectTypeOf(
      api.POST('/compute/cloud-vms', {
        params: { query: { workspace_id: '1042' }, header: { 'X-Idempotency-Key': 'key-1' } },
        body: { name: 'web-01', cpu: 2 },
      }),
    ).resolves.toHaveProperty('data');
  });

  test('a wrong path fails to compile', () => {
    // @ts-expect-error the document has no /compute/cloud-vm (singular)
    void api.GET('/compute/cloud-vm', { params: { query: { workspace_id: '1042' } } });
    // @ts-expect-error the operation status path is not shown in the document
    void api.GET('/operations/{operation_id}', {});
  });

  test('a wrong method fails to compile', () => {
    // @ts-expect-error buckets are listed with GET, not POST
    void api.POST('/object-storage/buckets', { params: { query: { workspace_id: '1042' } } });
    // @ts-expect-error a reserved IP is released with DELETE, not GET
    void api.GET('/networking/reserved-ips/{reserved_ip_id}', {
      params: { path: { reserved_ip_id: 'rip-1' }, query: { workspace_id: '1042' } },
    });
  });

  test('a missing workspace_id fails to compile', () => {
    // @ts-expect-error workspace_id is required on every operation
    void api.GET('/object-storage/buckets', { params: { query: {} } });
    // @ts-expect-error params (with workspace_id) cannot be left out
    void api.GET('/object-storage/buckets');
  });

  test('a missing X-Idempotency-Key fails to compile', () => {
    void api.DELETE('/compute/gpu-vms/{vm_id}', {
      // @ts-expect-error deleting a GPU VM requires X-Idempotency-Key
      params: { path: { vm_id: 'vm-1' }, query: { workspace_id: '1042' }, header: {} },
    });
    void api.POST('/compute/cloud-vms', {
      // @ts-expect-error creating a cloud VM requires X-Idempotency-Key
      params: { query: { workspace_id: '1042' } },
      body: {},
    });
  });

  test('a missing path parameter fails to compile', () => {
    void api.POST('/compute/gpu-vms/{vm_id}/backups/enable', {
      // @ts-expect-error vm_id is required
      params: { path: {}, query: { workspace_id: '1042' } },
      body: {},
    });
  });

  test('a misspelled body field fails to compile', () => {
    // openapi-fetch 0.17 infers `init` as a generic, which switches off TypeScript's excess
    // property check for bodies passed to `api.POST(...)` inline; the request body types
    // themselves (used by @cloud-api/client's helpers) reject a misspelled field.
    type NatRuleUpdate =
      paths['/networking/vpcs/{vpc_id}/nat-gateways/{nat_gateway_id}/port-forwarding-rules/{port_forwarding_rule_id}']['patch']['requestBody']['content']['application/json'];
    // @ts-expect-error the field is `internal_port`
    const update: NatRuleUpdate = { internal_prot: 22 };
    type CreateVm = paths['/compute/cloud-vms']['post']['requestBody']['content']['application/json'];
    // @ts-expect-error the field is `ram_mb`
    const create: CreateVm = { name: 'web-01', ram_gb: 4 };
    type EnableBackups =
      paths['/compute/gpu-vms/{vm_id}/backups/enable']['post']['requestBody']['content']['application/json'];
    // @ts-expect-error the field is `retention_days`
    const backups: EnableBackups = { schedule: { hour: 2 }, retention_day: 14 };
    void [update, create, backups];
  });

  test('a wrong enum value fails to compile', () => {
    void api.PATCH(
      '/networking/vpcs/{vpc_id}/nat-gateways/{nat_gateway_id}/port-forwarding-rules/{port_forwarding_rule_id}',
      {
        params: {
          path: { vpc_id: 'vpc-1', nat_gateway_id: 'natgw-1', port_forwarding_rule_id: 'pfr-1' },
          query: { workspace_id: '1042' },
        },
        // @ts-expect-error protocol is tcp or udp
        body: { protocol: 'icmp' },
      },
    );
  });

  test('responses are typed by the success schema', async () => {
    const { data } = await api.GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
      params: { path: { restore_id: 'rst-1' }, query: { workspace_id: '1042' } },
    });
    expectTypeOf(data).toEqualTypeOf<CloudVmRestore | undefined>();
    const deleted = await api.DELETE('/networking/reserved-ips/{reserved_ip_id}', {
      params: { path: { reserved_ip_id: 'rip-1' }, query: { workspace_id: '1042' } },
    });
    expectTypeOf(deleted.data).toEqualTypeOf<undefined>();
  });
});

describe('the schema aliases', () => {
  test('enum fields take only their documented values', () => {
    expectTypeOf<NatPortForwardingRule['status']>().toEqualTypeOf<
      'provisioning' | 'available' | 'error' | 'deleting'
    >();
    expectTypeOf<CloudVmRestore['status']>().toEqualTypeOf<
      'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'
    >();
    expectTypeOf<CloudVmRestore['target_mode']>().toEqualTypeOf<'replace' | 'new_vm' | 'volume_only'>();
    // Typed as the document types it: only a fresh acceptance is shown to report `accepted`.
    expectTypeOf<OperationAcceptance['status']>().toEqualTypeOf<string>();
    // @ts-expect-error `paused` is not a NAT rule status
    const status: NatPortForwardingRule['status'] = 'paused';
    void status;
  });

  test('required fields are required, optional fields optional, records read-only', () => {
    expectTypeOf<BillingEligibilityDecision>().toEqualTypeOf<{ readonly allowed: boolean }>();
    // @ts-expect-error operation_id, vm_id and submitted_at are required
    const accepted: OperationAcceptance = { status: 'accepted' };
    void accepted;
    const policy = {} as BackupPolicy;
    // @ts-expect-error records are read-only
    policy.retention_days = 1;
    const empty: EnableGpuVmBackupsRequest = {};
    const partial: UpdateNatPortForwardingRuleRequest = { enabled: false };
    void empty;
    void partial;
  });

  test('a field with a default is still optional in a record (it may be absent)', () => {
    expectTypeOf<NatPortForwardingRule>().toHaveProperty('protocol');
    // @ts-expect-error under exactOptionalPropertyTypes, optional does not mean "may be undefined"
    const rule: Pick<NatPortForwardingRule, 'protocol'> = { protocol: undefined };
    void rule;
    const withoutProtocol: Pick<NatPortForwardingRule, 'protocol'> = {};
    void withoutProtocol;
  });
});
