import type { TargetProfile } from './types.js';

/** Every secret a profile holds: identity tokens, the revoked and the other-environment token. */
export function profileSecrets(profile: TargetProfile): string[] {
  const secrets = Object.values(profile.identities).map((identity) => identity.token);
  if (profile.revokedToken) secrets.push(profile.revokedToken);
  if (profile.otherEnvironmentToken) secrets.push(profile.otherEnvironmentToken);
  // The part after the environment prefix is secret too: arbitraries recombine it with the other prefix.
  const bodies = secrets.map((secret) => secret.replace(/^svc_(?:prod|dev)_key_/, ''));
  // Basic-scheme probes carry tokens base64-encoded; those encodings are secrets too.
  const encoded = secrets.flatMap((secret) => [
    Buffer.from(secret).toString('base64'),
    Buffer.from(`${secret}:`).toString('base64'),
  ]);
  return [...new Set([...secrets, ...bodies, ...encoded].filter((secret) => secret.length >= 8))];
}

/** A token shown in reports: its environment prefix only, so a reader knows which kind it was. */
export function maskToken(token: string): string {
  const prefix = /^(svc_(?:prod|dev)_key_)/.exec(token)?.[1] ?? '';
  return `${prefix}<redacted>`;
}

/** The profile as it may appear in a report: every token masked. */
export function redactProfile(profile: TargetProfile): TargetProfile {
  const identities = Object.fromEntries(
    Object.entries(profile.identities).map(([name, identity]) => [
      name,
      { ...identity, token: maskToken(identity.token) },
    ]),
  );
  return {
    ...profile,
    identities,
    ...(profile.revokedToken ? { revokedToken: maskToken(profile.revokedToken) } : {}),
    ...(profile.otherEnvironmentToken
      ? { otherEnvironmentToken: maskToken(profile.otherEnvironmentToken) }
      : {}),
  };
}

/** Replaces every occurrence of any secret in a text (longest first, so no secret leaks partly). */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length < 4) continue;
    result = result.split(secret).join(maskToken(secret));
  }
  return result;
}
