import type { NatRuleRef, TargetProfile } from '../targetProfile/index.js';

/**
 * Which profile resource each check may use. Consuming checks (delete, release) each get their
 * own resource, and "probe" resources are used only by requests a correct target refuses, so
 * that one check never consumes what another one needs.
 */
export interface ResourcePlan {
  readonly gpuVmForDefaults?: string;
  readonly gpuVmProbe?: string;
  /**
   * GPU VMs without a backup policy for BACKUP-2's explicit values (up to six: one per frequency,
   * then a weekly one without its day, a long retention, daily full backups with incrementals).
   */
  readonly gpuVmsForValues: readonly string[];
  readonly deleteAccept?: string;
  readonly deleteReplay?: string;
  readonly deleteProbe?: string;
  readonly releaseAccept?: string;
  readonly releaseProbe?: string;
  /**
   * A GPU VM and a reserved IP that ISO-1 asks to delete and release through another workspace,
   * then through their own: with fresh resources, still there proves the refused request left them.
   */
  readonly deleteIsolation?: string;
  readonly releaseIsolation?: string;
  /**
   * A GPU VM and a reserved IP that REFUSE-1 asks to delete and release in ways the API refuses
   * (no token, a lacking scope, a workspace outside the policy, an invalid workspace_id), then
   * consumes: with fresh resources, still there proves no refused request acted.
   */
  readonly deleteRefused?: string;
  readonly releaseRefused?: string;
  readonly natRule?: NatRuleRef;
  readonly restore?: string;
}

export function planResources(profile: TargetProfile): ResourcePlan {
  const r = profile.resources ?? {};
  const gpu = r.gpuVmIds ?? [];
  const deletable = r.deletableGpuVmIds ?? [];
  const releasable = r.releasableReservedIpIds ?? [];
  const plan: Record<string, unknown> = {
    gpuVmForDefaults: gpu[0],
    gpuVmProbe: gpu[1] ?? gpu[0],
    deleteAccept: deletable[0],
    deleteReplay: deletable[1],
    deleteProbe: deletable[2],
    deleteIsolation: deletable[3],
    deleteRefused: deletable[4],
    releaseAccept: releasable[0],
    releaseProbe: releasable[1],
    releaseIsolation: releasable[2],
    releaseRefused: releasable[3],
    natRule: r.natRules?.[0],
    restore: r.restoreIds?.[0],
  };
  const present = Object.fromEntries(Object.entries(plan).filter(([, value]) => value !== undefined));
  return { ...present, gpuVmsForValues: gpu.slice(2, 8) } as ResourcePlan;
}
