/** A target profile: which environment to test and with what (see docs and the JSON Schema). */
export interface TargetProfile {
  readonly name: string;
  readonly baseUrl: string;
  readonly environment: 'development' | 'production';
  readonly identities: Readonly<Record<string, Identity>>;
  readonly revokedToken?: string;
  readonly otherEnvironmentToken?: string;
  readonly workspaces: {
    readonly primary: string;
    readonly secondary: string;
    readonly billingDenied?: string;
  };
  readonly resources?: ProfileResources;
  readonly billing: { readonly skuCode: string };
  readonly mutations?: boolean;
  readonly allowProduction?: boolean;
  readonly requestTimeoutMs?: number;
  readonly rateLimitPerSecond?: number;
  /** Most requests in flight for independent cases (as `--concurrency`). */
  readonly concurrency?: number;
  /** Largest response body read (bytes); a larger answer fails its check. */
  readonly maxResponseBytes?: number;
  /** Gate mode, as `--strict`. */
  readonly strict?: boolean;
  readonly unsupportedRules?: readonly { readonly id: string; readonly reason: string }[];
}

export interface Identity {
  readonly token: string;
  readonly scopes: 'all' | readonly string[];
  readonly workspaces: 'all' | readonly string[];
}

export interface NatRuleRef {
  readonly vpcId: string;
  readonly natGatewayId: string;
  readonly ruleId: string;
}

export interface ProfileResources {
  readonly gpuVmIds?: readonly string[];
  readonly deletableGpuVmIds?: readonly string[];
  readonly restoreIds?: readonly string[];
  readonly natRules?: readonly NatRuleRef[];
  readonly releasableReservedIpIds?: readonly string[];
}
