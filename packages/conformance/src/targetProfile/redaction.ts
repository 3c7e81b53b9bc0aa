import type { TargetProfile } from '@cloud-api/target-profile';
import { maskToken, type SecretRedactor } from '../secrets/secretRedactor.js';

export { maskToken };

const ENVIRONMENT_PREFIX = /^svc_(?:prod|dev)_key_/;
/** Shorter token bodies are covered by the derived tokens below instead of masking common text. */
const MIN_BODY_LENGTH = 4;

/** The tokens a profile holds: every identity's, the revoked and the other-environment token. */
export function profileTokens(profile: TargetProfile): string[] {
  return [
    ...Object.values(profile.identities).map((identity) => identity.token),
    ...(profile.revokedToken ? [profile.revokedToken] : []),
    ...(profile.otherEnvironmentToken ? [profile.otherEnvironmentToken] : []),
  ].filter((token) => typeof token === 'string' && token.length > 0);
}

/**
 * Every secret a profile holds: its tokens, whatever their length, and what the suite derives
 * from them (ENV-1 sends a token with the other environment's prefix), and the part after the
 * prefix, so no recombination of it leaks either.
 */
export function profileSecrets(profile: TargetProfile): string[] {
  const tokens = profileTokens(profile);
  const derived = tokens.flatMap((token) => {
    const prefix = ENVIRONMENT_PREFIX.exec(token)?.[0];
    if (!prefix) return [];
    const body = token.slice(prefix.length);
    return [`svc_prod_key_${body}`, `svc_dev_key_${body}`, ...(body.length >= MIN_BODY_LENGTH ? [body] : [])];
  });
  return [...new Set([...tokens, ...derived])];
}

function redactValues(value: unknown, redactor: SecretRedactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValues(item, redactor));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactValues(item, redactor)]),
    );
  return value;
}

/**
 * The profile as it may appear in a report: tokens show only their environment prefix, and
 * every other value passes through the run's redactor (a base URL or a query built from a
 * `${VAR}` is a secret too).
 */
export function redactProfile(profile: TargetProfile, redactor: SecretRedactor): TargetProfile {
  const identities = Object.fromEntries(
    Object.entries(profile.identities).map(([name, identity]) => [
      name,
      { ...(redactValues(identity, redactor) as object), token: maskToken(identity.token) },
    ]),
  );
  return {
    ...(redactValues(profile, redactor) as TargetProfile),
    identities,
    ...(profile.revokedToken ? { revokedToken: maskToken(profile.revokedToken) } : {}),
    ...(profile.otherEnvironmentToken
      ? { otherEnvironmentToken: maskToken(profile.otherEnvironmentToken) }
      : {}),
  } as TargetProfile;
}
