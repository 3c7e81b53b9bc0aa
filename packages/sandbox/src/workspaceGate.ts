import type { SandboxBehaviour } from './sandboxBehaviour.js';
import type { SandboxProfile } from './sandboxProfile.js';
import type { ParameterContract } from './specContract.js';
import type { Caller } from './tokenAuthenticator.js';

export type WorkspaceFormOutcome =
  | { readonly ok: true; readonly workspaceId: string }
  | { readonly ok: false; readonly status: number; readonly detail: string };

/** Validates `workspace_id` and decides whether a caller may enter a workspace. */
export class WorkspaceGate {
  /** Every workspace of the sandbox's one organization. */
  readonly organizationWorkspaces: ReadonlySet<string>;
  readonly primary: string;

  constructor(
    profile: SandboxProfile,
    private readonly behaviour: SandboxBehaviour,
  ) {
    const workspaces = new Set<string>([profile.workspaces.primary, profile.workspaces.secondary]);
    if (profile.workspaces.billingDenied) workspaces.add(profile.workspaces.billingDenied);
    for (const identity of Object.values(profile.identities)) {
      if (identity.workspaces !== 'all') for (const id of identity.workspaces) workspaces.add(id);
    }
    this.organizationWorkspaces = workspaces;
    this.primary = profile.workspaces.primary;
  }

  /**
   * Checks the form of `workspace_id` with the spec's parameter schema. The WS faults let one
   * class of invalid value through, served in the primary workspace as a careless default would.
   */
  checkForm(
    parameter: ParameterContract,
    value: string | undefined,
    duplicated: boolean,
  ): WorkspaceFormOutcome {
    const status = this.behaviour.invalidWorkspaceStatus;
    if (value === undefined) {
      if (this.behaviour.fault === 'accept-missing-workspace-id')
        return { ok: true, workspaceId: this.primary };
      return {
        ok: false,
        status,
        detail: `Missing required query parameter ${parameter.name}: send the workspace ID, e.g. ?${parameter.name}=${parameter.example ?? '1042'}.`,
      };
    }
    if (duplicated) {
      return { ok: false, status, detail: `Query parameter ${parameter.name} must be given once.` };
    }
    if (parameter.validate(value)) return { ok: true, workspaceId: value };
    if (this.faultAccepts(value)) return { ok: true, workspaceId: this.primary };
    return {
      ok: false,
      status,
      detail: `Invalid query parameter ${parameter.name}: it must be a positive decimal integer (e.g. ${parameter.example ?? '1042'}); zero, negative and non-numeric values are rejected.`,
    };
  }

  private faultAccepts(value: string): boolean {
    switch (this.behaviour.fault) {
      case 'accept-zero-workspace-id':
        return /^[+-]?0+$/.test(value);
      case 'accept-negative-workspace-id':
        return /^-[0-9]*[1-9][0-9]*$/.test(value);
      case 'accept-non-numeric-workspace-id':
        return !/^[+-]?[0-9]+$/.test(value);
      default:
        return false;
    }
  }

  /** Organization membership, then the caller's workspace policy; a detail string means 403. */
  refusal(caller: Caller, workspaceId: string): string | undefined {
    if (!this.organizationWorkspaces.has(workspaceId)) {
      return `Workspace ${workspaceId} is not a workspace of your organization.`;
    }
    const fault = this.behaviour.fault;
    if (caller.policy === 'entire-organization') {
      if (fault === 'entire-organization-limited-to-primary' && workspaceId !== this.primary) {
        return `This token may not access workspace ${workspaceId}.`;
      }
      return undefined;
    }
    if (caller.policyAllows(workspaceId) || fault === 'ignore-workspace-policy') return undefined;
    return `This token's workspace policy (specific workspaces) does not include workspace ${workspaceId}.`;
  }
}
