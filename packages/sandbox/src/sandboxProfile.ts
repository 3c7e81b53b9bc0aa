/**
 * The structural type of a conformance target profile (owned by @cloud-api/conformance, see
 * docs/briefing target-profile). Declared here again so the sandbox needs no dependency on the
 * conformance package; optional keys accept `undefined` so either side's objects fit.
 */
export interface SandboxIdentity {
  readonly token: string;
  /** `all`, or a list of the 16 scope names. */
  readonly scopes: 'all' | readonly string[];
  /** `all` (entire organization policy) or a list of workspace ids (specific workspaces policy). */
  readonly workspaces: 'all' | readonly string[];
}

export interface SandboxNatRuleRef {
  readonly vpcId: string;
  readonly natGatewayId: string;
  readonly ruleId: string;
}

export interface SandboxResources {
  readonly gpuVmIds?: readonly string[] | undefined;
  readonly deletableGpuVmIds?: readonly string[] | undefined;
  readonly restoreIds?: readonly string[] | undefined;
  readonly natRules?: readonly SandboxNatRuleRef[] | undefined;
  readonly releasableReservedIpIds?: readonly string[] | undefined;
}

export type SandboxEnvironment = 'development' | 'production';

export interface SandboxProfile {
  readonly name: string;
  /** Base URL ending with `/v1`; the sandbox itself listens wherever `listen()` is told. */
  readonly baseUrl: string;
  readonly environment: SandboxEnvironment;
  readonly identities: Readonly<Record<string, SandboxIdentity>>;
  readonly revokedToken?: string | undefined;
  readonly otherEnvironmentToken?: string | undefined;
  readonly workspaces: {
    readonly primary: string;
    readonly secondary: string;
    readonly billingDenied?: string | undefined;
  };
  readonly resources?: SandboxResources | undefined;
  readonly billing: { readonly skuCode: string };
  readonly mutations?: boolean | undefined;
  readonly allowProduction?: boolean | undefined;
  readonly requestTimeoutMs?: number | undefined;
  readonly rateLimitPerSecond?: number | undefined;
  readonly unsupportedRules?: readonly { readonly id: string; readonly reason: string }[] | undefined;
}

/** Thrown when a profile cannot seed a sandbox; the message names the field and never a token. */
export class SandboxProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxProfileError';
  }
}

const WORKSPACE_ID = /^[1-9][0-9]*$/;

export interface ProfileCheckContext {
  readonly scopeNames: ReadonlySet<string>;
  readonly environment: SandboxEnvironment;
  readonly tokenPrefix: string;
  readonly otherTokenPrefix: string;
}

/** Checks what seeding relies on; the conformance package validates the full profile schema. */
export function checkSandboxProfile(profile: SandboxProfile, context: ProfileCheckContext): void {
  if (!profile || typeof profile !== 'object') throw new SandboxProfileError('profile: expected an object');
  const identities = Object.entries(profile.identities ?? {});
  if (identities.length === 0) throw new SandboxProfileError('identities: at least one identity is needed');
  const seen = new Set<string>();
  for (const [name, identity] of identities) {
    const field = `identities.${name}`;
    if (typeof identity?.token !== 'string' || identity.token.length === 0) {
      throw new SandboxProfileError(`${field}.token: expected a non-empty string`);
    }
    if (!identity.token.startsWith(context.tokenPrefix)) {
      throw new SandboxProfileError(
        `${field}.token: a ${context.environment} sandbox needs tokens starting with ${context.tokenPrefix}`,
      );
    }
    if (seen.has(identity.token))
      throw new SandboxProfileError(`${field}.token: the same token is used by two identities`);
    seen.add(identity.token);
    if (identity.scopes !== 'all') {
      if (!Array.isArray(identity.scopes))
        throw new SandboxProfileError(`${field}.scopes: expected "all" or a list`);
      for (const scope of identity.scopes) {
        if (!context.scopeNames.has(scope)) {
          throw new SandboxProfileError(
            `${field}.scopes: unknown scope "${scope}"; use one of ${[...context.scopeNames].join(', ')}`,
          );
        }
      }
    }
    if (identity.workspaces !== 'all') {
      if (!Array.isArray(identity.workspaces)) {
        throw new SandboxProfileError(`${field}.workspaces: expected "all" or a list of workspace ids`);
      }
      for (const id of identity.workspaces) checkWorkspaceId(`${field}.workspaces`, id);
    }
  }
  checkWorkspaceId('workspaces.primary', profile.workspaces?.primary);
  checkWorkspaceId('workspaces.secondary', profile.workspaces?.secondary);
  if (profile.workspaces.billingDenied !== undefined) {
    checkWorkspaceId('workspaces.billingDenied', profile.workspaces.billingDenied);
    if (profile.workspaces.billingDenied === profile.workspaces.primary) {
      throw new SandboxProfileError('workspaces.billingDenied: must differ from workspaces.primary');
    }
  }
  if (profile.revokedToken !== undefined && seen.has(profile.revokedToken)) {
    throw new SandboxProfileError('revokedToken: is also the token of an identity');
  }
  if (profile.otherEnvironmentToken !== undefined && seen.has(profile.otherEnvironmentToken)) {
    throw new SandboxProfileError('otherEnvironmentToken: is also the token of an identity');
  }
  if (typeof profile.billing?.skuCode !== 'string' || profile.billing.skuCode.length === 0) {
    throw new SandboxProfileError('billing.skuCode: expected a non-empty string');
  }
}

function checkWorkspaceId(field: string, value: unknown): void {
  if (typeof value !== 'string' || !WORKSPACE_ID.test(value)) {
    throw new SandboxProfileError(`${field}: expected a positive decimal integer string such as "1042"`);
  }
}
