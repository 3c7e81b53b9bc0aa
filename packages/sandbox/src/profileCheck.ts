import { profileProblems } from '@cloud-api/target-profile';
import { type SandboxEnvironment, type SandboxProfile, SandboxProfileError } from './sandboxProfile.js';

export interface ProfileCheckContext {
  /** The environment the sandbox pretends to be (the profile's unless createSandbox says otherwise). */
  readonly environment: SandboxEnvironment;
  /** That environment's token prefix. */
  readonly tokenPrefix: string;
}

/**
 * Checks a profile with @cloud-api/target-profile, the same schema and checks as the conformance
 * CLI, so the sandbox seeds from every profile the suite accepts. Only one thing more: a sandbox
 * told to be another environment than the profile's cannot use its tokens (the profile's are all
 * of its own environment). Messages name the field, never a token.
 */
export function checkSandboxProfile(profile: SandboxProfile, context: ProfileCheckContext): void {
  const problems = profileProblems(profile);
  if (problems.length > 0) throw new SandboxProfileError(problems.join('; '));
  if (context.environment !== profile.environment) {
    throw new SandboxProfileError(
      `environment: a ${context.environment} sandbox needs a ${context.environment} profile (tokens starting with ${context.tokenPrefix}); this one is ${profile.environment}`,
    );
  }
}
