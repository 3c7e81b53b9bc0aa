import type { Identity, TargetProfile } from '../targetProfile/index.js';

export interface NamedIdentity extends Identity {
  readonly name: string;
}

export function hasScope(identity: Identity, scope: string): boolean {
  return identity.scopes === 'all' || identity.scopes.includes(scope);
}

export function allowsWorkspace(identity: Identity, workspace: string): boolean {
  return identity.workspaces === 'all' || identity.workspaces.includes(workspace);
}

export function namedIdentities(profile: TargetProfile): NamedIdentity[] {
  return Object.entries(profile.identities).map(([name, identity]) => ({ name, ...identity }));
}

/** The workspaces the profile names: primary, secondary, and the billing-denied one if any. */
export function namedWorkspaces(profile: TargetProfile): string[] {
  const { primary, secondary, billingDenied } = profile.workspaces;
  return [primary, secondary, ...(billingDenied ? [billingDenied] : [])];
}

/** Every identity that holds `scope` and may use `workspace`. */
export function identitiesWith(profile: TargetProfile, scope: string, workspace: string): NamedIdentity[] {
  return namedIdentities(profile).filter((id) => hasScope(id, scope) && allowsWorkspace(id, workspace));
}

/** The broadest of `candidates`: one holding every scope if there is one, else the first. */
export function broadest(candidates: readonly NamedIdentity[]): NamedIdentity | undefined {
  return candidates.find((id) => id.scopes === 'all') ?? candidates[0];
}

/** An identity that holds `scope` and may use `workspace`, preferring the broadest one. */
export function identityWith(
  profile: TargetProfile,
  scope: string,
  workspace: string,
): NamedIdentity | undefined {
  return broadest(identitiesWith(profile, scope, workspace));
}
