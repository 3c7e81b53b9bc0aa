import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { TargetProfile } from '../targetProfile/index.js';

/** The create body when the profile gives none (createCloudVmBody): the values the examples use. */
const DEFAULT_CLOUD_VM_BODY = {
  plan_id: 'plan-std-2c-4g',
  template_id: 'tpl-ubuntu-2404',
  os_distro: 'ubuntu',
  os_type: 'linux',
  cpu: 2,
  ram_mb: 4096,
} as const;

/** A VM name of its own each call, a host name label (a target may refuse a second VM of a name). */
export function newVmName(): string {
  return `conformance-${randomUUID().slice(0, 8)}`;
}

/** The body of a cloud VM create: the profile's createCloudVmBody, or the default, with a name. */
export function cloudVmBody(profile: TargetProfile, name: string = newVmName()): Record<string, unknown> {
  return { ...(profile.createCloudVmBody ?? DEFAULT_CLOUD_VM_BODY), name };
}

/** The default body's two plans, each with its matching CPUs and memory (a target may hold a plan to its size). */
const DEFAULT_SIZES = [
  { plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 },
  { plan_id: 'plan-std-4c-8g', cpu: 4, ram_mb: 8192 },
] as const;

/** One create body per plan the run uses: the profile's body, or the default in each of its plans. */
export function cloudVmBodyPerPlan(profile: TargetProfile): Record<string, unknown>[] {
  if (profile.createCloudVmBody) return [cloudVmBody(profile)];
  return DEFAULT_SIZES.map((size) => ({ ...cloudVmBody(profile), ...size }));
}

/**
 * Create bodies for a property: a profile's body as given, else the default in one of its plans.
 * Names carry a tag of the run, so a second run with the same seed names new VMs.
 */
export function cloudVmBodies(profile: TargetProfile): fc.Arbitrary<Record<string, unknown>> {
  const runTag = randomUUID().slice(0, 6);
  const name = fc.stringMatching(/^[a-z0-9]{1,8}$/).map((suffix) => `conformance-${runTag}-${suffix}`);
  if (profile.createCloudVmBody) return name.map((vmName) => cloudVmBody(profile, vmName));
  return fc
    .tuple(name, fc.constantFrom(...DEFAULT_SIZES))
    .map(([vmName, size]) => ({ ...cloudVmBody(profile, vmName), ...size }));
}
