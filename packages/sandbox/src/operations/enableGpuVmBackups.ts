import { errorResult, jsonResult } from '../operationResult.js';
import type { BackupPolicyRecord, BackupPolicySchedule } from '../sandboxStore.js';
import { SANDBOX_ORGANIZATION } from '../sandboxStore.js';
import { NOT_FOUND_DETAIL, type OperationHandler } from './operationContext.js';
import { inRequestWorkspace, notInWorkspace, ownedElsewhereConflict } from './workspaceFilter.js';

interface EnableBackupsBody {
  schedule?: BackupPolicySchedule;
  retention_days?: number;
  full_backup_interval_days?: number;
  incremental_enabled?: boolean;
  requested_by?: string;
}

const DAY_MS = 86_400_000;

/** The documented schedule defaults, as the backup-schedule-defaults-win fault spreads them last. */
const SCHEDULE_DEFAULTS = { timezone: 'UTC', hour: 20, minute: 0, window_minutes: 30 } as const;

/**
 * Creates the VM's backup policy. The defaults come from the spec's `default` keywords (which
 * quote the document); a second enable conflicts (409) unless the variant answers the policy.
 */
export const enableGpuVmBackups: OperationHandler = (request, services) => {
  const { store, behaviour, clock, contract } = services;
  const vmId = request.pathParameters.vm_id ?? '';
  const vm = store.gpuVms.get(vmId);
  const ownedElsewhere = ownedElsewhereConflict('GPU VM', vmId, vm?.workspaceId, request, services);
  if (ownedElsewhere) return ownedElsewhere;
  if (!vm || !inRequestWorkspace(vm.workspaceId, request, services, 'gpu-vm-lookup-ignores-workspace')) {
    return notInWorkspace(
      services,
      request,
      vm?.workspaceId,
      NOT_FOUND_DETAIL('GPU VM', vmId, request.workspaceId),
    );
  }
  // The backup-enable-on-deleting-vm fault: the backup service reads the VM without its state.
  if (vm.state === 'deleting' && behaviour.fault !== 'backup-enable-on-deleting-vm')
    return errorResult(409, `GPU VM ${vmId} is being deleted; backups cannot be enabled.`);
  // The upsert fault writes the policy whether or not one exists (INSERT ... ON CONFLICT UPDATE).
  if (vm.backupPolicy && behaviour.fault !== 'backup-enable-upserts') {
    if (behaviour.variant === 'backup-enable-twice-returns-policy') return jsonResult(200, vm.backupPolicy);
    return errorResult(
      409,
      `Backups are already enabled on GPU VM ${vmId} (policy ${vm.backupPolicy.policy_id}).`,
    );
  }

  const sent = request.body as EnableBackupsBody;
  const day = sent.schedule?.day_of_week;
  if (behaviour.variant === 'backup-days-counted-from-1' && typeof day === 'number' && (day < 1 || day > 7))
    return errorResult(400, 'schedule.day_of_week counts from 1 (Monday) to 7 (Sunday).');
  const body = structuredClone(sent);
  contract.applyDefaults('EnableGpuVmBackupsRequest', body);
  const schedule: BackupPolicySchedule = body.schedule ?? {};
  contract.applyDefaults('BackupPolicySchedule', schedule);
  schedule.day_of_week ??= null;
  if (behaviour.fault === 'backup-values-or-default') {
    // value || default: false and 0 are "not sent".
    body.retention_days = sent.retention_days || 7;
    body.full_backup_interval_days = sent.full_backup_interval_days || 7;
    body.incremental_enabled = sent.incremental_enabled || true;
    schedule.hour = sent.schedule?.hour || 20;
    schedule.window_minutes = sent.schedule?.window_minutes || 30;
  }
  // A schedule sent is decoded into a struct whole: what it leaves out is zero, not its default.
  if (behaviour.fault === 'backup-partial-schedule-zeroed' && sent.schedule)
    Object.assign(schedule, { timezone: '', hour: 0, minute: 0, window_minutes: 0 }, sent.schedule);
  // {...sent.schedule, ...defaults}: the spread order lets the defaults win.
  if (behaviour.fault === 'backup-schedule-defaults-win') Object.assign(schedule, SCHEDULE_DEFAULTS);
  // The scheduler was written for UTC only: the zone column is filled with a constant.
  if (behaviour.fault === 'backup-timezone-constant') schedule.timezone = 'UTC';
  // The schedule's view lists the columns it maps, and day_of_week is not among them.
  if (behaviour.fault === 'backup-day-of-week-dropped') schedule.day_of_week = null;
  // `hour || 20`: midnight reads as the default.
  if (behaviour.fault === 'backup-hour-zero-read-as-default' && schedule.hour === 0) schedule.hour = 20;
  // `day_of_week or None`: day 0 reads as no day.
  if (behaviour.fault === 'backup-day-of-week-zero-read-as-none' && schedule.day_of_week === 0)
    schedule.day_of_week = null;
  // A body that sends some fields is bound to the model: what it leaves out takes the column
  // defaults (1, false); only an empty body goes through the documented defaults.
  if (behaviour.fault === 'backup-partial-body-column-defaults' && Object.keys(sent).length > 0) {
    body.full_backup_interval_days = sent.full_backup_interval_days ?? 1;
    body.incremental_enabled = sent.incremental_enabled ?? false;
  }
  if (behaviour.fault === 'backup-default-retention-14' && sent.retention_days === undefined)
    body.retention_days = 14;
  // The hourly scheduler has no use for an hour, so the model leaves it null when none is sent.
  if (
    behaviour.fault === 'backup-hourly-hour-null' &&
    schedule.frequency === 'hourly' &&
    sent.schedule?.hour === undefined
  )
    schedule.hour = null as unknown as number;
  // A weekly schedule needs a day, so the model fills Sunday (0) when none is sent.
  if (
    behaviour.fault === 'backup-weekly-day-filled-sunday' &&
    schedule.frequency === 'weekly' &&
    sent.schedule?.day_of_week === undefined
  )
    schedule.day_of_week = 0;
  // The plan's retention limit is applied silently instead of refusing the value.
  if (behaviour.fault === 'backup-retention-capped-at-30' && (body.retention_days as number) > 30)
    body.retention_days = 30;
  // A business rule rewrites what was sent instead of refusing it: a daily full makes incrementals pointless.
  if (behaviour.fault === 'backup-incremental-off-for-daily-full' && body.full_backup_interval_days === 1)
    body.incremental_enabled = false;
  if (behaviour.fault === 'backup-default-window-60' && sent.schedule?.window_minutes === undefined) {
    schedule.window_minutes = 60;
  }

  const now = clock.timestamp();
  const policy: BackupPolicyRecord = {
    organization_id: SANDBOX_ORGANIZATION.id,
    workspace_id: vm.workspaceId,
    policy_id: store.nextId('bkp'),
    vm_id: vm.vmId,
    enabled: true,
    schedule,
    retention_days: body.retention_days as number,
    full_backup_interval_days: body.full_backup_interval_days as number,
    incremental_enabled: body.incremental_enabled as boolean,
    storage_backend: 'object-storage',
    created_at: now,
    updated_at: now,
    organization_name: SANDBOX_ORGANIZATION.name,
    workspace_name: store.workspaceNames.get(vm.workspaceId) ?? null,
    vm_name: vm.name,
    os_type: vm.osType,
    os_distro: vm.osDistro,
    template_id: vm.templateId,
    next_run_at: nextRunAt(schedule, clock.now(), (ms) => clock.format(ms)),
    last_run_at: null,
  };
  if (behaviour.fault === 'backup-policy-enabled-by-worker') {
    // The answer is the row as inserted; the job that enables it runs afterwards.
    vm.backupPolicy = policy;
    return jsonResult(200, { ...policy, enabled: false });
  }
  if (behaviour.fault === 'backup-policy-missing-storage-backend') delete policy.storage_backend;
  if (behaviour.fault === 'backup-policy-internal-vm-id')
    // The policy row's foreign key (the VM's internal row number) is serialised, not its public id.
    policy.vm_id = String([...store.gpuVms.keys()].indexOf(vm.vmId) + 1);
  vm.backupPolicy = policy;
  return jsonResult(200, policy);
};

/** The next run of a UTC schedule; null where the sandbox does not compute it (other time zones). */
function nextRunAt(
  schedule: BackupPolicySchedule,
  nowMs: number,
  format: (ms: number) => string,
): string | null {
  const { hour, minute, timezone } = schedule;
  if (timezone?.toUpperCase() !== 'UTC' || hour === undefined || minute === undefined) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return null;
  const today = new Date(nowMs);
  let next = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), hour, minute);
  if (next <= nowMs) next += DAY_MS;
  return format(next);
}
