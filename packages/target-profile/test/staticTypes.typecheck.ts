// Checked by `pnpm typecheck` (tsc over test/), not run by vitest: the static types TypeBox derives
// from the schema must be exactly the hand-written interfaces the conformance suite and the sandbox
// were written against (readonly everywhere, optional keys without `| undefined`), so their code
// compiles unchanged. A difference in any property, modifier or array mutability fails tsc here.
import { expectTypeOf } from 'vitest';
import type {
  Identity,
  NatRuleRef,
  ProfileResources,
  ProvisionCommand,
  TargetProfile,
} from '../src/index.js';

interface ExpectedIdentity {
  readonly token: string;
  readonly scopes: 'all' | readonly string[];
  readonly workspaces: 'all' | readonly string[];
}

interface ExpectedNatRuleRef {
  readonly vpcId: string;
  readonly natGatewayId: string;
  readonly ruleId: string;
  readonly name?: string;
}

interface ExpectedResources {
  readonly gpuVmIds?: readonly string[];
  readonly deletableGpuVmIds?: readonly string[];
  readonly restoreIds?: readonly string[];
  readonly natRules?: readonly ExpectedNatRuleRef[];
  readonly releasableReservedIpIds?: readonly string[];
  readonly bucketListsDiffer?: boolean;
}

interface ExpectedProvisionCommand {
  readonly command: readonly string[];
  readonly timeoutMs?: number;
}

interface ExpectedTargetProfile {
  readonly $schema?: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly environment: 'development' | 'production';
  readonly identities: Readonly<Record<string, ExpectedIdentity>>;
  readonly revokedToken?: string;
  readonly otherEnvironmentToken?: string;
  readonly workspaces: {
    readonly primary: string;
    readonly secondary: string;
    readonly billingDenied?: string;
  };
  readonly resources?: ExpectedResources;
  readonly provision?: ExpectedProvisionCommand;
  readonly billing: { readonly skuCode: string };
  readonly createCloudVmBody?: {
    readonly plan_id?: string;
    readonly template_id?: string;
    readonly os_distro?: string;
    readonly os_type?: string;
    readonly cpu?: number;
    readonly ram_mb?: number;
  };
  readonly mutations?: boolean;
  readonly allowProduction?: boolean;
  readonly requestTimeoutMs?: number;
  readonly preflightTimeoutMs?: number;
  readonly rateLimitPerSecond?: number;
  readonly concurrency?: number;
  readonly maxResponseBytes?: number;
  readonly strict?: boolean;
  readonly unsupportedRules?: readonly { readonly id: string; readonly reason: string }[];
}

expectTypeOf<Identity>().toEqualTypeOf<ExpectedIdentity>();
expectTypeOf<NatRuleRef>().toEqualTypeOf<ExpectedNatRuleRef>();
expectTypeOf<ProfileResources>().toEqualTypeOf<ExpectedResources>();
expectTypeOf<ProvisionCommand>().toEqualTypeOf<ExpectedProvisionCommand>();
expectTypeOf<TargetProfile>().toEqualTypeOf<ExpectedTargetProfile>();
