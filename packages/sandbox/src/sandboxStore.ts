import { randomUUID } from 'node:crypto';
import type { OperationResult } from './operationResult.js';
import type { SandboxClock } from './sandboxClock.js';
import type { SandboxProfile } from './sandboxProfile.js';

/** The record shapes the document specifies, as the sandbox stores them. */
export interface AcceptanceRecord {
  operation_id: string;
  vm_id: string;
  status: string;
  submitted_at?: string;
}

export interface BackupPolicySchedule {
  frequency?: 'hourly' | 'daily' | 'weekly';
  timezone?: string;
  hour?: number;
  minute?: number;
  day_of_week?: number | null;
  window_minutes?: number;
}

export interface BackupPolicyRecord {
  organization_id: string;
  workspace_id: string;
  policy_id: string;
  vm_id: string;
  enabled: boolean;
  schedule: BackupPolicySchedule;
  retention_days: number;
  full_backup_interval_days: number;
  incremental_enabled: boolean;
  storage_backend?: string;
  created_at: string;
  updated_at: string;
  organization_name: string | null;
  workspace_name: string | null;
  vm_name: string | null;
  os_type: string | null;
  os_distro: string | null;
  template_id: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
}

export interface NatRuleRecord {
  name: string;
  external_port: number;
  internal_ip: string;
  internal_port: number;
  port_forward_rule_id: string;
  vpc_id: string;
  nat_gateway_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  protocol: 'tcp' | 'udp';
  note: string;
  enabled: boolean;
  organization_id: string;
  workspace_id: string;
  site_id: string;
  error_message: string | null;
}

export interface RestoreRecord {
  organization_id: string;
  workspace_id: string;
  restore_id: string;
  source_vm_id: string;
  target_mode: string;
  recovery_point_id: string;
  status: string;
  organization_name: string | null;
  workspace_name: string | null;
  target_vm_id: string | null;
  target_vm_name: string | null;
  recovery_point_type: 'backup' | 'snapshot';
  started_at: string | null;
  completed_at: string | null;
  error_message: string | null;
  metadata: Record<string, unknown>;
}

/** The VM states are not shown by the document; the sandbox knows these. */
export interface GpuVm {
  readonly vmId: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly osType: string;
  readonly osDistro: string;
  readonly templateId: string;
  state: 'running' | 'deleting';
  /** When the delete was accepted (ms since the epoch). */
  deletingSince?: number;
  backupPolicy: BackupPolicyRecord | undefined;
}

export interface CloudVm {
  readonly vmId: string;
  readonly workspaceId: string;
  readonly request: unknown;
  state: 'creating';
}

export interface AcceptedOperation {
  readonly record: AcceptanceRecord;
  readonly workspaceId: string;
  readonly kind: 'create-cloud-vm' | 'delete-gpu-vm';
}

/** Reserved IP fields are not shown by the document; these are the sandbox's. */
export interface ReservedIp {
  readonly reservedIpId: string;
  readonly workspaceId: string;
  readonly address: string;
  /** A reserved IP assigned to a VM conflicts with release (409). */
  readonly assignedVmId: string | null;
  state: 'reserved' | 'released';
}

export interface Bucket {
  readonly bucket_id: string;
  readonly name: string;
  readonly workspace_id: string;
  readonly region: string;
  readonly created_at: string;
}

/** A stored answer to an idempotent request, replayed for the same key and request. */
export interface IdempotentAnswer {
  readonly fingerprint: string;
  readonly status: number;
  readonly body: unknown;
  /** When it was stored (ms since the epoch): only the answers-expire fault reads it. */
  readonly storedAt: number;
}

export const SANDBOX_ORGANIZATION = { id: 'org-sandbox-0001', name: 'Sandbox Organization' } as const;

/** Resources the sandbox adds beside the profile's, so conflicts can be reached (see README). */
export const SANDBOX_FIXTURES = {
  vpcId: 'vpc-sandbox-0001',
  natGatewayId: 'natgw-sandbox-0001',
  provisioningRuleId: 'pfr-sandbox-provisioning',
  deletingRuleId: 'pfr-sandbox-deleting',
  assignedReservedIpId: 'rip-sandbox-assigned',
} as const;

export function natRuleKey(vpcId: string, natGatewayId: string, ruleId: string): string {
  return `${vpcId}\u0000${natGatewayId}\u0000${ruleId}`;
}

const HOUR_MS = 3_600_000;

/** The sandbox's whole state, in memory; `reset()` brings it back to the seeded state. */
export class SandboxStore {
  readonly gpuVms = new Map<string, GpuVm>();
  readonly cloudVms = new Map<string, CloudVm>();
  readonly operations = new Map<string, AcceptedOperation>();
  readonly restores = new Map<string, RestoreRecord>();
  readonly natRules = new Map<string, NatRuleRecord>();
  /** Rules with an update in its store round trip (the nat-rule-update-conflict-409 variant). */
  readonly natRulesBeingUpdated = new Set<string>();
  /** Ports each rule keeps as floats (the nat-rule-port-float-kept fault), by rule key. */
  readonly natRuleFloatPorts = new Map<string, Set<string>>();
  /** Billing decisions the gateway is waiting for (the billing-fail-open-when-busy fault). */
  billingDecisionsInFlight = 0;
  /** X-Idempotency-Keys of creates the gateway forwarded (the billing-skipped-for-known-key fault). */
  readonly forwardedCreateKeys = new Set<string>();
  readonly reservedIps = new Map<string, ReservedIp>();
  readonly bucketsByWorkspace = new Map<string, Bucket[]>();
  /** The bucket-list-cached-without-workspace fault's cache: one list, whatever the workspace. */
  bucketListCache: { readonly buckets: readonly Bucket[]; readonly at: number } | undefined;
  /** The workspace-id-pollution-behind-list-cache fault's gateway cache, by the workspace the policy read. */
  readonly gatewayListCache = new Map<string, { readonly answer: OperationResult; readonly at: number }>();
  /** Bucket lists answered so far (the bucket-list-envelope-on-canary fault). */
  bucketListsServed = 0;
  /** The restore-not-found-cached-by-id fault's cache: when each restore id last answered 404, in any workspace. */
  readonly restoreNotFoundAt = new Map<string, number>();
  readonly idempotentAnswers = new Map<string, IdempotentAnswer>();
  readonly workspaceNames = new Map<string, string>();
  private sequence = 0;
  /** Sequences per scope: the operation-id-per-workspace faults' only. */
  private readonly scopedSequences = new Map<string, number>();

  constructor(
    private readonly profile: SandboxProfile,
    private readonly clock: SandboxClock,
    /** `uuid`: new identifiers are random UUIDs (the uuid-identifiers variant). */
    private readonly idStyle: 'sequence' | 'uuid' = 'sequence',
  ) {
    this.reset();
  }

  /** A new identifier, unique within this sandbox: `prefix-<8 hex>`, or `prefix-<uuid>`. */
  nextId(prefix: string): string {
    this.sequence += 1;
    return this.idStyle === 'uuid' ? `${prefix}-${randomUUID()}` : this.idAt(prefix, this.sequence);
  }

  /**
   * The vm-id-read-then-write fault's id: the sequence as read earlier, plus one, written back
   * now; a create that read the same sequence meanwhile gets the same id.
   */
  idFromStaleRead(prefix: string, read: number): string {
    this.sequence = read + 1;
    return this.idAt(prefix, this.sequence);
  }

  /**
   * An identifier numbered within `scope` alone (a sequence per workspace, as a table partitioned
   * by tenant gives): unique there, and repeated by every other scope.
   */
  /** The id `nextIdIn` would hand out next, without taking it (a rolled-back insert's). */
  peekIdIn(prefix: string, scope: string): string {
    return this.idAt(prefix, (this.scopedSequences.get(scope) ?? 0) + 1);
  }

  nextIdIn(prefix: string, scope: string): string {
    const next = (this.scopedSequences.get(scope) ?? 0) + 1;
    this.scopedSequences.set(scope, next);
    return this.idAt(prefix, next);
  }

  /** The sequence as a read of the store would see it now. */
  readSequence(): number {
    return this.sequence;
  }

  private idAt(prefix: string, sequence: number): string {
    return `${prefix}-${sequence.toString(16).padStart(8, '0')}`;
  }

  reset(): void {
    for (const map of [
      this.gpuVms,
      this.cloudVms,
      this.operations,
      this.restores,
      this.natRules,
      this.natRuleFloatPorts,
      this.reservedIps,
      this.bucketsByWorkspace,
      this.idempotentAnswers,
      this.workspaceNames,
    ]) {
      map.clear();
    }
    this.sequence = 0;
    this.scopedSequences.clear();
    this.bucketListCache = undefined;
    this.gatewayListCache.clear();
    this.bucketListsServed = 0;
    const { profile, clock } = this;
    const primary = profile.workspaces.primary;
    const seededAt = clock.now() - 48 * HOUR_MS;
    const at = (hoursAfterSeed: number) => clock.format(seededAt + hoursAfterSeed * HOUR_MS);

    this.workspaceNames.set(primary, 'primary');
    this.workspaceNames.set(profile.workspaces.secondary, 'secondary');
    if (profile.workspaces.billingDenied)
      this.workspaceNames.set(profile.workspaces.billingDenied, 'billing-denied');

    const resources = profile.resources ?? {};
    const gpuVmIds = new Set([...(resources.gpuVmIds ?? []), ...(resources.deletableGpuVmIds ?? [])]);
    let index = 0;
    for (const vmId of gpuVmIds) {
      index += 1;
      this.gpuVms.set(vmId, {
        vmId,
        workspaceId: primary,
        name: `gpu-train-${String(index).padStart(2, '0')}`,
        osType: 'linux',
        osDistro: 'ubuntu',
        templateId: 'tpl-ubuntu-2404-cuda',
        state: 'running',
        backupPolicy: undefined,
      });
    }

    const targetModes = ['new_vm', 'replace', 'volume_only'] as const;
    const restoreStates = ['succeeded', 'running', 'queued', 'failed', 'cancelled'] as const;
    (resources.restoreIds ?? []).forEach((restoreId, position) => {
      const status = restoreStates[position % restoreStates.length] ?? 'succeeded';
      const started = status === 'queued' ? null : at(position + 1);
      const finished = status === 'succeeded' || status === 'failed' || status === 'cancelled';
      const targetMode = targetModes[position % targetModes.length] ?? 'new_vm';
      this.restores.set(restoreId, {
        organization_id: SANDBOX_ORGANIZATION.id,
        workspace_id: primary,
        restore_id: restoreId,
        source_vm_id: `vm-cloud-${String(position + 1).padStart(4, '0')}`,
        target_mode: targetMode,
        recovery_point_id: `snap-${String(position + 1).padStart(4, '0')}`,
        status,
        organization_name: SANDBOX_ORGANIZATION.name,
        workspace_name: 'primary',
        target_vm_id:
          targetMode === 'new_vm' ? `vm-cloud-restored-${String(position + 1).padStart(4, '0')}` : null,
        target_vm_name:
          targetMode === 'new_vm' ? `web-${String(position + 1).padStart(2, '0')}-restored` : null,
        recovery_point_type: position % 2 === 0 ? 'snapshot' : 'backup',
        started_at: started,
        completed_at: finished ? at(position + 2) : null,
        error_message: status === 'failed' ? 'The recovery point could not be read' : null,
        metadata: { requested_by: 'api' },
      });
    });

    const natRule = (
      vpcId: string,
      natGatewayId: string,
      ruleId: string,
      position: number,
      status: string,
      name = `ssh-bastion-${position + 1}`,
    ) => {
      this.natRules.set(natRuleKey(vpcId, natGatewayId, ruleId), {
        name,
        external_port: 2222 + position,
        internal_ip: `10.0.1.${15 + position}`,
        internal_port: 22,
        port_forward_rule_id: ruleId,
        vpc_id: vpcId,
        nat_gateway_id: natGatewayId,
        status,
        created_at: at(position),
        updated_at: at(position + 1),
        protocol: 'tcp',
        note: 'seeded by the sandbox',
        enabled: true,
        organization_id: SANDBOX_ORGANIZATION.id,
        workspace_id: primary,
        site_id: 'site-fra-1',
        error_message: null,
      });
    };
    (resources.natRules ?? []).forEach((rule, position) => {
      natRule(rule.vpcId, rule.natGatewayId, rule.ruleId, position, 'available', rule.name);
    });
    const fixtures = SANDBOX_FIXTURES;
    natRule(fixtures.vpcId, fixtures.natGatewayId, fixtures.provisioningRuleId, 90, 'provisioning');
    natRule(fixtures.vpcId, fixtures.natGatewayId, fixtures.deletingRuleId, 91, 'deleting');

    (resources.releasableReservedIpIds ?? []).forEach((reservedIpId, position) => {
      this.reservedIps.set(reservedIpId, {
        reservedIpId,
        workspaceId: primary,
        address: `203.0.113.${(position % 250) + 1}`,
        assignedVmId: null,
        state: 'reserved',
      });
    });
    this.reservedIps.set(fixtures.assignedReservedIpId, {
      reservedIpId: fixtures.assignedReservedIpId,
      workspaceId: primary,
      address: '203.0.113.254',
      assignedVmId: 'vm-cloud-0001',
      state: 'reserved',
    });

    this.bucketsByWorkspace.set(primary, [
      {
        bucket_id: 'bkt-0001',
        name: 'app-assets',
        workspace_id: primary,
        region: 'eu-fra-1',
        created_at: at(0),
      },
      {
        bucket_id: 'bkt-0002',
        name: 'db-backups',
        workspace_id: primary,
        region: 'eu-fra-1',
        created_at: at(1),
      },
    ]);
    this.bucketsByWorkspace.set(profile.workspaces.secondary, [
      {
        bucket_id: 'bkt-0003',
        name: 'staging-assets',
        workspace_id: profile.workspaces.secondary,
        region: 'eu-fra-1',
        created_at: at(2),
      },
    ]);
  }
}
