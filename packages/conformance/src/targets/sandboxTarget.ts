import { randomBytes } from 'node:crypto';
import type { TargetProfile } from '../targetProfile/index.js';
import type { RunningTarget } from './runningTarget.js';

/** The structural surface of @cloud-api/sandbox the engine uses (it is loaded lazily). */
interface SandboxModule {
  createSandbox(options: { profile: TargetProfile; fault?: string; variant?: string }): {
    listen(port: number, host: string): Promise<{ url: string; close(): Promise<void> }>;
  };
  defaultSandboxProfile(): TargetProfile;
  faultCatalogue: readonly { id: string; rule: string; description: string }[];
  variantCatalogue: readonly { id: string; description: string; rule?: string }[];
}

export async function loadSandboxModule(): Promise<SandboxModule> {
  const name = '@cloud-api/sandbox';
  try {
    return (await import(name)) as SandboxModule;
  } catch (error) {
    throw new Error(
      `The embedded sandbox target needs @cloud-api/sandbox built (pnpm turbo run build --filter=@cloud-api/sandbox): ${(error as Error).message.split('\n')[0]}. Use --target prism meanwhile.`,
    );
  }
}

const OPERATION_SCOPES = [
  'billing.read',
  'object-storage.read',
  'vm.read',
  'vm.write',
  'network.write',
] as const;

function devToken(label: string): string {
  return `svc_dev_key_conformance_${label}_${randomBytes(6).toString('hex')}`;
}

/**
 * The embedded target's profile: the sandbox's default plus one identity lacking each
 * operation scope (so SCOPE-1 covers every operation) and enough resources for every
 * consuming check. The sandbox is disposable, so mutations are allowed.
 */
export function embeddedSandboxProfile(base: TargetProfile, allScopes: readonly string[]): TargetProfile {
  const identities: Record<string, TargetProfile['identities'][string]> = { ...base.identities };
  for (const scope of OPERATION_SCOPES) {
    // The sandbox's default profile may already hold an identity lacking this scope.
    if (
      Object.values(identities).some(
        (identity) => identity.scopes !== 'all' && !identity.scopes.includes(scope),
      )
    )
      continue;
    identities[`without_${scope.replace(/[.-]/g, '_')}`] = {
      token: devToken(scope.replace(/[.-]/g, '')),
      scopes: allScopes.filter((s) => s !== scope),
      workspaces: 'all',
    };
  }
  if (!Object.values(identities).some((identity) => identity.workspaces !== 'all')) {
    identities.primaryOnlyConformance = {
      token: devToken('primaryonly'),
      scopes: 'all',
      workspaces: [base.workspaces.primary],
    };
  }
  const resources = base.resources ?? {};
  const pad = (list: readonly string[] | undefined, prefix: string, count: number): string[] => {
    const ids = [...(list ?? [])];
    while (ids.length < count) ids.push(`${prefix}-${String(9000 + ids.length)}`);
    return ids;
  };
  return {
    ...base,
    name: base.name || 'sandbox',
    identities,
    resources: {
      ...resources,
      // BACKUP-1 and the probes use two; BACKUP-2 one per schedule frequency and three single questions.
      gpuVmIds: pad(resources.gpuVmIds, 'vm-gpu-conf', 8),
      // Accepted, retried, refused; then one each that ISO-1 consumes after refused attempts.
      deletableGpuVmIds: pad(resources.deletableGpuVmIds, 'vm-gpu-del', 4),
      releasableReservedIpIds: pad(resources.releasableReservedIpIds, 'rip-conf', 3),
      restoreIds: pad(resources.restoreIds, 'rst-conf', 1),
      natRules:
        resources.natRules && resources.natRules.length > 0
          ? resources.natRules
          : [{ vpcId: 'vpc-conf-0001', natGatewayId: 'natgw-conf-0001', ruleId: 'pfr-conf-0001' }],
    },
    mutations: true,
    allowProduction: false,
  };
}

export async function startSandboxTarget(
  profile: TargetProfile,
  options: { fault?: string | undefined; variant?: string | undefined } = {},
): Promise<RunningTarget> {
  const sandbox = await loadSandboxModule();
  const instance = sandbox.createSandbox({
    profile,
    ...(options.fault ? { fault: options.fault } : {}),
    ...(options.variant ? { variant: options.variant } : {}),
  });
  const server = await instance.listen(0, '127.0.0.1');
  const url = server.url.replace(/\/$/, '');
  return { baseUrl: url.endsWith('/v1') ? url : `${url}/v1`, stop: () => server.close() };
}
