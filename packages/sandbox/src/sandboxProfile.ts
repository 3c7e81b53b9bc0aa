// Types only: this module (and SandboxProfileError) loads without the validator, so the command
// line answers a bad option without loading it.
import type {
  Identity,
  NatRuleRef,
  ProfileEnvironment,
  ProfileResources,
  TargetProfile,
} from '@cloud-api/target-profile';

/**
 * The target profile, as @cloud-api/target-profile defines it for the conformance suite and the
 * sandbox alike: the sandbox's names for its types.
 */
export type SandboxProfile = TargetProfile;
export type SandboxIdentity = Identity;
export type SandboxNatRuleRef = NatRuleRef;
export type SandboxResources = ProfileResources;
export type SandboxEnvironment = ProfileEnvironment;

/** Thrown when a profile cannot seed a sandbox; the message names the field and never a token. */
export class SandboxProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxProfileError';
  }
}
