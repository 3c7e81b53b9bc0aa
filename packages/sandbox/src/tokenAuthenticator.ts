import type { SandboxBehaviour } from './sandboxBehaviour.js';
import type { SandboxEnvironment, SandboxIdentity, SandboxProfile } from './sandboxProfile.js';

/** The token-lookup-truncated fault: the token column's width. */
const TRUNCATED_TOKEN_LENGTH = 32;
/** The revocation-list-reload-gap fault: how long the list is empty in every second. */
const REVOCATION_RELOAD_GAP_MS = 40;

/** An authenticated caller: what it may do and where. */
export interface Caller {
  readonly identityName: string;
  readonly policy: 'entire-organization' | 'specific-workspaces';
  hasScope(scope: string): boolean;
  /** Whether the workspace policy lets the caller into a workspace of its organization. */
  policyAllows(workspaceId: string): boolean;
  /** The workspaces a specific-workspaces policy selects, as the token lists them. */
  readonly selectedWorkspaces?: readonly string[];
}

export type AuthenticationOutcome =
  | { readonly ok: true; readonly caller: Caller }
  | { readonly ok: false; readonly detail: string; readonly status?: number };

const BEARER = 'bearer ';

/** Resolves `Authorization` headers to callers, bound to the sandbox's environment. */
export class TokenAuthenticator {
  private readonly callers = new Map<string, Caller>();
  private readonly revoked: string | undefined;
  private readonly otherEnvironmentToken: string | undefined;
  /** A full-rights caller, used only by faults that let a bad credential through. */
  private readonly faultBypassCaller: Caller = toCaller('fault-bypass', {
    token: '',
    scopes: 'all',
    workspaces: 'all',
  });

  /** What a lookup miss falls back to under the anonymous-fallback fault: every read scope. */
  private readonly anonymousCaller: Caller;

  constructor(
    profile: SandboxProfile,
    private readonly environment: SandboxEnvironment,
    private readonly prefixes: Readonly<Record<SandboxEnvironment, string>>,
    private readonly behaviour: SandboxBehaviour,
  ) {
    for (const [name, identity] of Object.entries(profile.identities))
      this.callers.set(identity.token, toCaller(name, identity));
    this.revoked = profile.revokedToken;
    this.otherEnvironmentToken = profile.otherEnvironmentToken;
    this.anonymousCaller = {
      identityName: 'anonymous',
      policy: 'entire-organization',
      hasScope: (scope) => scope.endsWith('.read'),
      policyAllows: () => true,
    };
  }

  /** The document shows no status for a revoked or other-environment token: 401 unless the variant says 403. */
  private rejectedTokenStatus(): { status?: number } {
    return this.behaviour.variant === 'rejected-tokens-403' ? { status: 403 } : {};
  }

  private get ownPrefix(): string {
    return this.prefixes[this.environment];
  }

  private get otherEnvironment(): SandboxEnvironment {
    return this.environment === 'development' ? 'production' : 'development';
  }

  /**
   * `safeMethod` (GET) matters only to the fault whose revocation check lives in the write guard,
   * `instance` (which of two balanced instances serves the request) to the per-instance cache's,
   * `cookie` to the one that reads a token from a cookie.
   */
  authenticate(
    header: string | undefined,
    {
      safeMethod = false,
      instance = 0,
      cookie,
    }: { safeMethod?: boolean; instance?: number; cookie?: string | undefined } = {},
  ): AuthenticationOutcome {
    const fault = this.behaviour.fault;
    if (header === undefined || header.trim() === '') {
      if (fault === 'accept-missing-authorization') return { ok: true, caller: this.faultBypassCaller };
      // A session middleware's fallback: without the header, the token the cookie holds.
      const fromCookie =
        fault === 'bearer-token-from-cookie' ? /(?:^|;\s*)access_token=([^;]+)/.exec(cookie ?? '') : null;
      if (fromCookie?.[1]) return this.resolveToken(fromCookie[1], safeMethod, instance);
      return { ok: false, detail: 'Missing Authorization header: send "Authorization: Bearer <API token>".' };
    }
    if (header.length <= BEARER.length || header.slice(0, BEARER.length).toLowerCase() !== BEARER) {
      const leaked = this.faultyNonBearer(header);
      if (leaked) return { ok: true, caller: leaked };
      return {
        ok: false,
        detail: 'Malformed Authorization header: use the Bearer scheme, "Authorization: Bearer <API token>".',
      };
    }
    const whole = header.slice(BEARER.length).trim();
    // The bearer-token-then-text fault: the token is the first word after the scheme, the rest ignored.
    const token = fault === 'bearer-token-then-text' ? (whole.split(/\s+/)[0] ?? '') : whole;
    if (token === '' || /\s/.test(token)) {
      return {
        ok: false,
        detail: 'Malformed Authorization header: the Bearer token must be one non-empty word.',
      };
    }
    return this.resolveToken(token, safeMethod, instance);
  }

  /**
   * The loose token lookups: a column with a case-insensitive collation, or one that keeps (and
   * so compares) the first 32 characters only.
   */
  private foundLoosely(token: string): Caller | undefined {
    const fault = this.behaviour.fault;
    const key =
      fault === 'token-lookup-case-insensitive'
        ? (text: string) => text.toLowerCase()
        : fault === 'token-lookup-truncated'
          ? (text: string) => text.slice(0, TRUNCATED_TOKEN_LENGTH)
          : undefined;
    if (!key) return undefined;
    for (const [known, caller] of this.callers) if (key(known) === key(token)) return caller;
    return undefined;
  }

  private resolveToken(token: string, safeMethod: boolean, instance: number): AuthenticationOutcome {
    const fault = this.behaviour.fault;
    const own = this.ownPrefix;
    const other = this.prefixes[this.otherEnvironment];
    if (!token.startsWith(own)) {
      if (fault === 'token-lookup-strips-prefix' && token.startsWith(other)) {
        // The key store is indexed by the secret after the prefix, so the prefix is never compared.
        const twin = this.callers.get(own + token.slice(other.length));
        if (twin) return { ok: true, caller: twin };
      }
      if (fault === 'accept-other-environment-token') {
        if (token === this.otherEnvironmentToken) return { ok: true, caller: this.faultBypassCaller };
        if (token.startsWith(other)) {
          const twin = this.callers.get(own + token.slice(other.length));
          if (twin) return { ok: true, caller: twin };
        }
      }
      if (token.startsWith(other) || token === this.otherEnvironmentToken) {
        return {
          ok: false,
          ...this.rejectedTokenStatus(),
          detail: `This token belongs to the ${this.otherEnvironment} environment; this is the ${this.environment} environment, which takes ${own} tokens only.`,
        };
      }
      return { ok: false, detail: `Invalid API token: ${this.environment} tokens start with ${own}.` };
    }
    const caller = this.callers.get(token) ?? this.foundLoosely(token);
    if (caller) return { ok: true, caller };
    if (token === this.revoked) {
      if (fault === 'accept-revoked-token') return { ok: true, caller: this.faultBypassCaller };
      if (fault === 'revocation-checked-on-writes-only' && safeMethod)
        return { ok: true, caller: this.faultBypassCaller };
      // The list is emptied and filled again at every whole second.
      if (fault === 'revocation-list-reload-gap' && Date.now() % 1000 < REVOCATION_RELOAD_GAP_MS)
        return { ok: true, caller: this.faultBypassCaller };
      // The revocation reached the instance that took it; the other's token cache still holds it.
      if (fault === 'revocation-cached-per-instance' && instance === 1)
        return { ok: true, caller: this.faultBypassCaller };
      return {
        ok: false,
        ...this.rejectedTokenStatus(),
        detail: 'This API token has been revoked; create a new token in the management portal.',
      };
    }
    if (fault === 'accept-unknown-token') return { ok: true, caller: this.faultBypassCaller };
    if (fault === 'unknown-token-anonymous-fallback') return { ok: true, caller: this.anonymousCaller };
    return { ok: false, detail: 'Invalid API token: it is unknown or has expired.' };
  }

  /** The two AUTH-1 faults: credentials outside the Bearer scheme that still carry a known token. */
  private faultyNonBearer(header: string): Caller | undefined {
    const fault = this.behaviour.fault;
    if (fault === 'accept-raw-token') return this.callers.get(header.trim());
    if (fault !== 'accept-basic-auth' || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
    const credential = header.slice(6).trim();
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    for (const candidate of [credential, decoded, ...decoded.split(':')]) {
      const caller = this.callers.get(candidate);
      if (caller) return caller;
    }
    // Like a forgotten fallback to a service account: any other Basic credential gets full rights.
    return this.faultBypassCaller;
  }
}

function toCaller(name: string, identity: SandboxIdentity): Caller {
  const scopes = identity.scopes === 'all' ? undefined : new Set(identity.scopes);
  const workspaces = identity.workspaces === 'all' ? undefined : new Set(identity.workspaces);
  return {
    identityName: name,
    policy: workspaces ? 'specific-workspaces' : 'entire-organization',
    hasScope: scopes ? (scope) => scopes.has(scope) : () => true,
    policyAllows: workspaces ? (workspaceId) => workspaces.has(workspaceId) : () => true,
    ...(identity.workspaces === 'all' ? {} : { selectedWorkspaces: identity.workspaces }),
  };
}
