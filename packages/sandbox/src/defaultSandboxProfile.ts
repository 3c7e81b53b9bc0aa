import { randomBytes } from 'node:crypto';
import type { SandboxEnvironment, SandboxIdentity, SandboxProfile } from './sandboxProfile.js';
import { loadSpecContract } from './specContract.js';

export interface DefaultSandboxProfileOptions {
  readonly environment?: SandboxEnvironment;
  readonly baseUrl?: string;
  /**
   * How to make each token's secret part. Default: 18 random bytes (base64url) per token, made
   * fresh on every call. Committed example profiles pass a function giving obviously fake names.
   */
  readonly tokenSecret?: (identityName: string) => string;
  /** How many of each resource kind to seed (default 8). */
  readonly resourceCount?: number;
}

/** Scopes the eight specified operations use; one identity lacks each of them. */
const OPERATION_SCOPES = [
  'billing.read',
  'object-storage.read',
  'vm.write',
  'vm.read',
  'network.write',
] as const;

const randomSecret = () => randomBytes(18).toString('base64url');

/**
 * Obviously fake secrets for the committed example profile (`svc_dev_key_sandbox_full`): a
 * sandbox seeded from it has well-known tokens, which is what a docs walkthrough needs.
 */
export const exampleTokenSecret = (identityName: string): string =>
  `sandbox_${identityName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;

/**
 * A profile that lets a conformance run check every rule: identities for each missing scope and
 * both workspace policies, revoked and other-environment tokens, and plenty of resources.
 */
export function defaultSandboxProfile(options: DefaultSandboxProfileOptions = {}): SandboxProfile {
  const environment = options.environment ?? 'development';
  const { tokenPrefixes, scopeNames } = loadSpecContract();
  const ownPrefix = tokenPrefixes[environment];
  const otherPrefix = tokenPrefixes[environment === 'development' ? 'production' : 'development'];
  const secret = options.tokenSecret ?? randomSecret;
  const count = options.resourceCount ?? 8;
  const primary = '1042';
  const secondary = '1043';
  const ids = (prefix: string, from: number) =>
    Array.from({ length: count }, (_, index) => `${prefix}-${String(from + index).padStart(4, '0')}`);

  const identities: Record<string, SandboxIdentity> = {
    full: { token: ownPrefix + secret('full'), scopes: 'all', workspaces: 'all' },
    primaryOnly: { token: ownPrefix + secret('primaryOnly'), scopes: 'all', workspaces: [primary] },
    // Asks for the primary workspace's resources through the secondary one without the right to
    // the primary: the case where a 403 ("may not access the workspace") is one reading.
    secondaryOnly: { token: ownPrefix + secret('secondaryOnly'), scopes: 'all', workspaces: [secondary] },
  };
  for (const scope of OPERATION_SCOPES) {
    const name = `no${scope
      .split(/[.-]/)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')}`;
    identities[name] = {
      token: ownPrefix + secret(name),
      scopes: [...scopeNames].filter((candidate) => candidate !== scope),
      workspaces: 'all',
    };
  }

  return {
    name: 'sandbox',
    baseUrl: options.baseUrl ?? 'http://127.0.0.1:4010/v1',
    environment,
    identities,
    revokedToken: ownPrefix + secret('revoked'),
    otherEnvironmentToken: otherPrefix + secret('otherEnvironment'),
    workspaces: { primary, secondary, billingDenied: '1044' },
    resources: {
      gpuVmIds: ids('vm-gpu', 1),
      deletableGpuVmIds: ids('vm-gpu', 101),
      restoreIds: ids('rst', 1),
      natRules: ids('pfr', 1).map((ruleId, position) => ({
        vpcId: 'vpc-0001',
        natGatewayId: 'natgw-0001',
        ruleId,
        // Read by sending it unchanged where a target refuses an empty update (nat-update-empty-refused).
        name: `ssh-bastion-${position + 1}`,
      })),
      releasableReservedIpIds: ids('rip', 1),
      // The store seeds two buckets in the primary workspace and one in the secondary.
      bucketListsDiffer: true,
    },
    billing: { skuCode: 'cloud-vm-standard-2' },
    mutations: true,
    // A local sandbox answers in milliseconds. The timeout is also when a client would retry a
    // create whose answer it lost (IDEM-2's late retry waits for it): short keeps the run quick.
    requestTimeoutMs: 3_000,
  };
}
