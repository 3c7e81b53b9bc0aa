/**
 * The rule catalogue: every rule sentence of the API document the suite checks, quoted exactly,
 * with the latitude the document leaves ("not shown"), the targets able to check it, and the
 * ways a real service breaks it (`threats`).
 * Tests name their rule by starting their title with its ID (for example `WS-2 rejects ...`).
 */

import type { ThreatMechanism } from './threatMechanisms.js';

export type RuleLevel = 'MUST' | 'SHOULD';
export type TargetKind = 'prism' | 'sandbox' | 'real';

export interface RuleEntry {
  readonly id: string;
  readonly level: RuleLevel;
  readonly title: string;
  /** The document's own words, quoted exactly (one or more sentences). */
  readonly quotes: readonly string[];
  /** What the document leaves open, and therefore what the suite accepts. */
  readonly latitude?: string;
  /** Targets on which the rule can be checked; others report it skipped with `whyNotPrism`. */
  readonly targets: readonly TargetKind[];
  /** Why Prism (an example-answering mock) cannot check the rule. */
  readonly whyNotPrism?: string;
  /** What the profile must provide, else the rule is skipped with a reason. */
  readonly needs?: readonly string[];
  /**
   * At least three realistic ways an implementation breaks the quoted sentences, each of a
   * distinct mechanism: written before any fault exists, so the next class of bug is found by
   * us. The mutation report marks each as killed (a sandbox fault of that mechanism made the
   * rule fail) or still to do.
   */
  readonly threats: readonly Threat[];
}

/** One way a real service breaks a rule: its cause, and how it happens in one sentence. */
export interface Threat {
  readonly mechanism: ThreatMechanism;
  readonly how: string;
}

const ALL: readonly TargetKind[] = ['prism', 'sandbox', 'real'];
const STATEFUL: readonly TargetKind[] = ['sandbox', 'real'];
const PRISM_NO_TOKENS = 'Prism only checks that a bearer token is present; it knows no token values.';
const WS_QUOTE_A =
  'Query parameter `workspace_id` (string, required): positive numeric workspace ID; zero, negative and non-numeric values are rejected.';
const PRISM_NO_STATE = 'Prism answers from the spec examples; it keeps no state and knows no resources.';

export const rules: readonly RuleEntry[] = [
  {
    id: 'WS-1',
    level: 'MUST',
    title: 'Every request carries workspace_id; a request without it is rejected',
    quotes: [
      "Every request carries a `workspace_id` query parameter that scopes it to one workspace of the caller's organization.",
      'Query parameter `workspace_id` (string, required): positive numeric workspace ID; zero, negative and non-numeric values are rejected.',
    ],
    latitude:
      'Status of the rejection not shown: any 4xx passes (A-WORKSPACE-ID-STATUS). The value is also sent under other names (Workspace_ID, WORKSPACE_ID, workspaceId), which are no workspace_id (query names are case-sensitive); not against Prism, whose presence check ignores the case of names.',
    targets: ALL,
    threats: [
      {
        mechanism: 'wrong-default',
        how: "A handler falls back to the organization's primary workspace (or the token's first one) when `workspace_id` is absent, so the request is served instead of rejected.",
      },
      {
        mechanism: 'falsy-default',
        how: 'The id is read as `Number(query.workspace_id) || defaultWorkspaceId`, so a missing or empty parameter selects the default workspace.',
      },
      {
        mechanism: 'validation-skipped-on-route',
        how: 'The query schema that marks `workspace_id` required is attached route by route, and a route added later (one that "only reads", such as the billing preflight) was registered without it.',
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'A response cache in front of validation is keyed by the path without the query string, so a request without `workspace_id` is answered from a cached success before anything checks it.',
      },
      {
        mechanism: 'loose-comparison',
        how: 'Query parameters are bound without regard to letter case (ASP.NET Core model binding) or through a camelCase alias, so `Workspace_ID=1042` or `workspaceId=1042` is read as workspace_id and a request without workspace_id is served.',
      },
    ],
  },
  {
    id: 'WS-2',
    level: 'MUST',
    title: 'workspace_id must be a positive number; zero, negative and non-numeric values are rejected',
    quotes: ['`workspace_id` must be a positive number; zero, negative and non-numeric values are rejected.'],
    latitude:
      "Status code returned for an invalid `workspace_id` (zero, negative, non-numeric): not shown — any 4xx passes. Generated values are zero however written, negative numbers, and non-numeric text (letters, empty, NaN, a space or comma inside the digits); spellings a framework may read as a positive number (a plus sign, surrounding spaces, decimals, an exponent, hexadecimal, other digits) are not called non-numeric by the document and are WS-5's. Leading zeros and huge numbers are never generated as valid (A-WORKSPACE-ID-LEADING-ZEROS).",
    targets: ALL,
    threats: [
      {
        mechanism: 'missing-validation',
        how: 'The query schema types `workspace_id` as an integer without `minimum: 1` (or as a plain string), so `0` and `-5` reach the workspace lookup instead of being rejected.',
      },
      {
        mechanism: 'unhandled-exception',
        how: "The value is converted with a function that throws on non-numeric input (`BigInt()`, Python's `int()`), and the exception reaches the generic handler, which answers 500 instead of a 4xx.",
      },
      {
        mechanism: 'lenient-parse',
        how: 'The value is read with parseInt/strtol, which keeps the leading digits, so `1.5` is read as 1 and `7abc` as 7 and both are served.',
      },
      {
        mechanism: 'type-coercion',
        how: "The unvalidated string is bound to an integer column and the database casts it (MySQL reads `'12abc'` as 12 and `'abc'` as 0), so a non-numeric value selects a workspace instead of being rejected.",
      },
    ],
  },
  {
    id: 'WS-3',
    level: 'MUST',
    title: 'A valid positive workspace_id of the organization is not rejected for its form',
    quotes: [
      'Query parameter `workspace_id` (string, required): positive numeric workspace ID; zero, negative and non-numeric values are rejected.',
    ],
    latitude:
      'On a workspace other than the one holding the resources, 403 or 404 (the document gives no status for a resource asked through another workspace) and 409 pass for operations that name a resource; operations that name none must succeed.',
    targets: STATEFUL,
    whyNotPrism: 'Prism validates only the form; it cannot tell which workspaces belong to the organization.',
    threats: [
      {
        mechanism: 'over-strict-check',
        how: 'The validator was written from the ids seen in development (a regex such as `^[1-9][0-9]{0,3}$`, an int32 bound), so a longer real workspace id of the organization is refused.',
      },
      {
        mechanism: 'stale-cache',
        how: "The gateway loads the organization's workspaces at start-up and caches the list, so a workspace created since is refused until the cache expires or the process restarts.",
      },
      {
        mechanism: 'type-coercion',
        how: "The parsed number is compared with strict equality against ids the store returns as strings (`1042 === '1042'` is false), so every real workspace is refused.",
      },
      {
        mechanism: 'precision-loss',
        how: 'The id is read into a double (JSON.parse, Number), so an id above 2^53 is rounded and no longer matches its own workspace.',
      },
    ],
  },
  {
    id: 'WS-4',
    level: 'MUST',
    title:
      'Negative, zero and non-numeric forms of a real workspace_id are rejected, while the real one is served',
    quotes: [
      '`workspace_id` must be a positive number; zero, negative and non-numeric values are rejected.',
      "Every request carries a `workspace_id` query parameter that scopes it to one workspace of the caller's organization.",
    ],
    latitude:
      "Forms derived from the profile's own workspaces (`-1042`, `1042abc`, `abc1042`, `10 42`, `1042` and `abc` on two lines, `0`, `-0`), so a server that normalises the value cannot map them onto a workspace that does not exist. Any 4xx passes (A-WORKSPACE-ID-STATUS); the same request with the real ID must not be refused for its form.",
    targets: ALL,
    threats: [
      {
        mechanism: 'lenient-parse',
        how: 'parseInt keeps the leading digits, so `1042abc` and `1042.9` are served as the real workspace 1042; a pattern whose `^` and `$` anchor at line ends (Ruby, or the m flag) passes `1042` followed by a line of letters.',
      },
      {
        mechanism: 'sign-dropped',
        how: 'The value goes through Math.abs or an unsigned cast, so `-1042` is served as the real workspace 1042.',
      },
      {
        mechanism: 'type-coercion',
        how: "The string reaches the query unvalidated and the database casts it on comparison with an integer column (MySQL reads `'1042abc'` as 1042), so the form selects the real workspace.",
      },
      {
        mechanism: 'proxy-rewrite',
        how: 'A gateway normalises the query string before the service sees it (strips spaces, decodes twice), so `10 42` or an encoded `-1042` arrives as a valid id.',
      },
    ],
  },
  {
    id: 'WS-5',
    level: 'SHOULD',
    title: 'Non-canonical spellings of a real workspace_id are not served as that workspace',
    quotes: [WS_QUOTE_A],
    latitude:
      'Whether `+1042`, ` 1042`, `1042` and a newline, `1_042`, `1042.0`, `1.042e3`, `0x412`, full-width or Arabic-Indic digits are "numeric" is not shown (A-WORKSPACE-ID-CANONICAL-FORM): a server that reads them as 1042 follows a reading of the document, so this is a SHOULD. Any 4xx passes. `01042` is all ASCII digits, which the spec admits (A-WORKSPACE-ID-LEADING-ZEROS): it is not warned about here; PARAM-1 requires it refused or read as 1042, never as another number (an octal parser reads 546).',
    targets: ALL,
    threats: [
      {
        mechanism: 'number-coercion',
        how: 'The value is read with `Number()`, which accepts ` 1042`, `+1042`, `01042`, `1042.0`, `1.042e3` and `0x412` as 1042.',
      },
      {
        mechanism: 'unicode-digits',
        how: "The parser accepts every Unicode decimal digit (Python's `int()`, a Unicode-aware `\\d`), so full-width `１０４２` is served as workspace 1042.",
      },
      {
        mechanism: 'type-coercion',
        how: "The framework's query schema coerces types (ajv `coerceTypes`, a lax pydantic model), so `+1042` or `1042.0` is turned into the integer 1042 before the handler sees it.",
      },
    ],
  },
  {
    id: 'AUTH-1',
    level: 'MUST',
    title: 'A missing or malformed Authorization header returns 401',
    quotes: [
      'Every request carries `Authorization: Bearer <API_TOKEN>`.',
      'A request with a missing, malformed or expired token returns 401.',
    ],
    latitude:
      'Lower-case `bearer` is never generated as malformed (auth schemes are case-insensitive in HTTP). A request without the header also carries a valid token in a cookie and, where it has a JSON body, in an access_token member, and must still get 401 (a body refused with 400 for that member before the token is read gives no verdict). Never in the query: a token in a URL lands in access logs.',
    targets: STATEFUL,
    whyNotPrism:
      'Prism accepts any Authorization value that starts with a scheme; it cannot tell malformed tokens.',
    threats: [
      {
        mechanism: 'fail-open',
        how: 'The authentication middleware only runs when an Authorization header is present (`if (header) verify(header)`), so a request without one passes with no identity check.',
      },
      {
        mechanism: 'lenient-parse',
        how: 'The token is taken as whatever follows the first space, or as the whole header, so `Basic ...`, `Token ...` or a raw token is verified as if it were a bearer token.',
      },
      {
        mechanism: 'alternate-credential-source',
        how: 'The bearer strategy also reads an `access_token` query or body parameter (passport-http-bearer does by default), so a request without the Authorization header is authenticated.',
      },
      {
        mechanism: 'middleware-order',
        how: 'A router mounted before the authentication middleware (`app.use(router)` ahead of `app.use(auth)`) serves its routes without any token; or a route parameter loader looks the resource up before the token is checked, so a caller without a token is told which ids exist (404 for the others).',
      },
    ],
  },
  {
    id: 'AUTH-2',
    level: 'MUST',
    title: 'An unknown or invalid token returns 401',
    quotes: ['401 Unauthorized | The token is missing, malformed, expired or invalid.'],
    latitude:
      'Token lifetime: not shown — expired tokens cannot be generated, unknown ones are. Besides random unknown tokens, tokens one edit away from a valid one (another letter case, a character short or more, the last 8 changed) must get 401; they are masked in every output like the token itself.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    threats: [
      {
        mechanism: 'format-only-check',
        how: 'The token is judged by its shape (the environment prefix and a length) and never looked up, so any well-formed unknown token is accepted.',
      },
      {
        mechanism: 'anonymous-fallback',
        how: 'A token the lookup does not find yields an anonymous or guest principal instead of a refusal, and the read routes accept that principal.',
      },
      {
        mechanism: 'fail-open',
        how: 'When the token store or identity service times out, the middleware lets the request through rather than answering 401.',
      },
      {
        mechanism: 'clock-skew',
        how: 'Expiry is compared against a server clock that runs behind, or with a generous leeway, so an expired token is still accepted.',
      },
      {
        mechanism: 'loose-comparison',
        how: 'The token is looked up under a case-insensitive collation, or in a column that truncates it, so a token one edit away from a valid one (another letter case, its last characters changed) is found and accepted.',
      },
    ],
  },
  {
    id: 'AUTH-3',
    level: 'MUST',
    title: 'Revoked tokens are rejected immediately on all later requests',
    quotes: ['Revoked tokens are rejected immediately on all later requests.'],
    latitude:
      'The document gives no status: 401 or 403 passes (A-REVOKED-TOKEN-STATUS). Besides one request per operation, reads with the revoked token go out every 20 ms for 1.2 s at the end of the run (as far apart as rateLimitPerSecond makes them), so a revocation that lapses for a moment in every second is met; every other one goes on a new connection, so an instance behind a balancer that pins connections, whose token cache missed the revocation, is met too.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['revokedToken'],
    threats: [
      {
        mechanism: 'stale-cache',
        how: 'Token validations are cached for minutes in the gateway or the service, so a revoked token keeps working until its cache entry expires.',
      },
      {
        mechanism: 'check-on-writes-only',
        how: 'The revocation list is consulted only by the guard on write routes, so a revoked token still reads.',
      },
      {
        mechanism: 'read-after-write-lag',
        how: 'The revocation is written to the primary database while authentication reads a replica, so requests during the replication lag are still accepted.',
      },
      {
        mechanism: 'per-instance-state',
        how: 'Each instance keeps its own token cache and the revocation invalidates only the instance that handled it, so requests balanced to the others still pass.',
      },
      {
        mechanism: 'non-transactional-write',
        how: 'The revocation list is reloaded in the background by emptying it and filling it again, so for a moment in every reload each revoked token is accepted.',
      },
    ],
  },
  {
    id: 'ENV-1',
    level: 'MUST',
    title: 'A token is valid only in its own environment',
    quotes: [
      'Production tokens start with `svc_prod_key_` and are sent to {base_url}. Development tokens start with `svc_dev_key_` and are sent to {dev_base_url}. A token is valid only in its own environment.',
    ],
    latitude: 'The document gives no status: 401 (the spec, A-OTHER-ENVIRONMENT-TOKEN) or 403 passes.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    threats: [
      {
        mechanism: 'missing-validation',
        how: 'The service checks that a token carries one of the known prefixes, not the prefix of the environment serving the request, so `svc_dev_key_` tokens pass in production.',
      },
      {
        mechanism: 'prefix-stripped-lookup',
        how: "Tokens are stored and looked up by the part after the prefix, so this environment's secret sent with the other environment's prefix is found and accepted.",
      },
      {
        mechanism: 'shared-environment-store',
        how: 'Development and production share one token table or identity service, so a development token is found by the production API and accepted.',
      },
      {
        mechanism: 'wrong-constant',
        how: 'The expected prefix comes from configuration copied from another environment, so a production deployment accepts `svc_dev_key_` tokens.',
      },
    ],
  },
  {
    id: 'ENV-2',
    level: 'MUST',
    title: 'The version is part of the base address: the base URL ends with /v1',
    quotes: [
      'The version is part of the base address: {base_url} ends with `/v1`, and {dev_base_url} ends with `/v1`.',
    ],
    targets: ALL,
    threats: [
      {
        mechanism: 'wrong-mount-path',
        how: 'The router, whose routes already start with `/v1`, is mounted under `/v1` again (or the version is left out), so the API answers under `/v1/v1` or the root and the `/v1` paths are 404.',
      },
      {
        mechanism: 'proxy-rewrite',
        how: 'An ingress rule strips or adds a path prefix (`/v1`, `/api`) that disagrees with the prefix the service mounts, so the paths under {base_url} do not reach the routes.',
      },
      {
        mechanism: 'wrong-constant',
        how: "The version segment comes from configuration (`API_VERSION`, a `/v1beta` left from a preview), so a deployment's base address does not end with `/v1`.",
      },
      {
        mechanism: 'null-dereference',
        how: 'The endpoint first asked under {base_url} (list buckets) crashes on deployment data it does not expect (a region missing from a lookup table), so nothing at the `/v1` address answers like the API.',
      },
    ],
  },
  {
    id: 'SCOPE-1',
    level: 'MUST',
    title: 'A request to an endpoint whose scope the token lacks returns 403',
    quotes: ['Rule: a request to an endpoint whose scope the token lacks returns `403 Forbidden`.'],
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['an identity lacking the scope of at least one operation'],
    threats: [
      {
        mechanism: 'missing-authorization-check',
        how: 'One route was registered without its scope guard (a new endpoint, or one copied from a route that had none), so any valid token may call it.',
      },
      {
        mechanism: 'implied-scope',
        how: 'The authorization library reads scopes as a hierarchy or by product prefix (`vm.write` implies `vm.read`, `network.read` satisfies `network.write`), granting a scope the token lacks.',
      },
      {
        mechanism: 'wrong-constant',
        how: 'A route requires the scope of another product area (the NAT rule update guarded by `vm.write` instead of `network.write`), so a token lacking the documented scope is let through.',
      },
      {
        mechanism: 'check-on-writes-only',
        how: 'Scopes are enforced by a guard on POST, PATCH and DELETE only, so a token without `object-storage.read` or `vm.read` still lists buckets or reads restores.',
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'The authorization decision is cached per token without the route, so a grant earned on one endpoint is replayed on another whose scope the token lacks.',
      },
      {
        mechanism: 'validation-skipped-on-route',
        how: 'The scope middleware is bound to the exact paths while the router (strict routing off) also serves them with a trailing slash, so `DELETE …/reserved-ips/{id}/` runs without the scope.',
      },
      {
        mechanism: 'path-normalisation-mismatch',
        how: "The router matches paths case-insensitively and resolves dot segments, while the scope guard's table matches the path as written: `/NETWORKING/RESERVED-IPS/{id}` or `/compute/../networking/reserved-ips/{id}` finds no guard entry and is served without a scope decision.",
      },
    ],
  },
  {
    id: 'SCOPE-2',
    level: 'MUST',
    title: 'A token holding the scope and allowed the workspace is not refused with 401/403',
    quotes: ["A request outside the token's scopes or workspace policy returns 403."],
    latitude:
      'Answers other than 401/403 (2xx, 404, 409 on consumed resources) pass; on a workspace other than the one holding the resources a 403 for an operation that names a resource passes too (no status is shown for a resource asked through another workspace). A 404 (for a read, also a 409) in the workspace holding the resources, for a request the broadest identity holding the scope is then served, fails: the resource was hidden from a token that may read it. Only grants count as evidence.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    threats: [
      {
        mechanism: 'over-strict-check',
        how: 'A route demands every scope of its product area (`vm.read` and `vm.write`) or an administrator role, instead of the one scope of the scope table.',
      },
      {
        mechanism: 'wrong-constant',
        how: 'A route requires a differently spelt scope (`vm:write`, `network.nat.write`) that no token created in the portal holds.',
      },
      {
        mechanism: 'wrong-delimiter',
        how: "The token's scopes are stored space-separated and split on commas (or the reverse), so a token with several scopes holds one unknown scope and none of its own.",
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'A refusal is cached per token without the route or the workspace, so a 403 earned on one endpoint is replayed on endpoints the token may use.',
      },
    ],
  },
  {
    id: 'POLICY-1',
    level: 'MUST',
    title: 'A specific-workspaces token gets 403 on a workspace outside its list',
    quotes: [
      'Specific workspaces | Token may access only the selected workspaces; requests to others return `403 Forbidden`.',
    ],
    latitude:
      "A `workspace_id` given twice (an allowed and a forbidden workspace, in both orders, or the forbidden one as `workspace_id[]`) may be refused or read as one of its values for everything (A-REPEATED-WORKSPACE-ID); it must never serve the forbidden workspace. Nor may a forbidden workspace named in a tenant header (`X-Workspace-Id`, `X-Tenant-Id`) beside the allowed `workspace_id`: the document scopes a request by its query parameter only, so the header is ignored or refused. Both are judged by comparing the bucket lists of the two workspaces (inconclusive when they are the same), and by asking for a restore of the primary workspace with an identity kept out of it, through a workspace it may use with the primary riding along: it must not be served (a list can come from a cache keyed by the workspace the policy read; one resource shows the handler's reading). That part needs an identity whose policy selects the secondary workspace and not the primary one. Each specific-workspaces identity is also sent, on the bucket list and the billing preflight, workspace ids written with its allowed ids' digits (a part, a digit more, a neighbour: 104, 42, 10420, 1041 for 1042) and an allowed id's octal digits after a leading zero (02022, decimal 2022, for 1042); whether those workspaces exist or not, none is in its list, so a 2xx fails.",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['an identity with a workspace list that leaves out a profile workspace'],
    threats: [
      {
        mechanism: 'missing-authorization-check',
        how: "Only the scope is checked; the token's workspace list is stored at creation but never compared with `workspace_id`.",
      },
      {
        mechanism: 'check-on-writes-only',
        how: 'The workspace policy is enforced by the write guard only, so a specific-workspaces token reads every workspace of the organization.',
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'The authorization decision is cached per token (and route) without the workspace, so a grant for a selected workspace is replayed for one outside the list.',
      },
      {
        mechanism: 'wrong-default',
        how: 'A token whose workspace list is empty or missing (after a migration, or created through an older portal form) is treated as entire organization.',
      },
      {
        mechanism: 'loose-comparison',
        how: "The list is checked by substring or prefix (`'1042,1043'.includes(id)`), so workspace 104 or 10 passes for a token that selected 1042.",
      },
      {
        mechanism: 'radix-prefix',
        how: "workspace_id is read with a parser that honours radix prefixes (Java's `Long.decode`, Ruby's `Integer()`, Go's `ParseInt(s, 0, 64)`): `02022`, decimal 2022, is read as octal 1042, so a token that selected 1042 is served workspace 2022's request.",
      },
      {
        mechanism: 'parameter-pollution',
        how: "With `workspace_id` given twice, the policy middleware checks the first value and the handler serves the last, so an allowed workspace carries a forbidden one past the check; a gateway caching lists by the workspace its policy read answers the list from the allowed workspace's cache, while a read of one resource reaches the handler.",
      },
      {
        mechanism: 'client-set-internal-header',
        how: 'The service reads the workspace from `X-Workspace-Id`, the header the gateway sets for it after its policy check, and the gateway does not strip that header from client requests: a client names another workspace than the one the policy checked.',
      },
    ],
  },
  {
    id: 'POLICY-2',
    level: 'MUST',
    title: 'An entire-organization token may access any workspace of the organization',
    quotes: ['Entire organization | Token may access any workspace of the organization.'],
    latitude:
      'Resources live in the primary workspace, so 403 or 404 (no status is shown for a resource asked through another workspace) and 409 pass for operations that name a resource; operations that name none must succeed on every workspace.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    threats: [
      {
        mechanism: 'wrong-default',
        how: 'The entire-organization policy is stored as the list of workspaces at creation time, or as the primary workspace only, so other workspaces get 403.',
      },
      {
        mechanism: 'stale-cache',
        how: "The organization's workspace list is cached when a token is first seen, so a workspace created since is refused until the cache expires.",
      },
      {
        mechanism: 'type-coercion',
        how: 'The workspace id from the query (a string) is compared with strict equality against numeric ids from the store, so no workspace of the organization matches and every request is refused.',
      },
    ],
  },
  {
    id: 'REFUSE-1',
    level: 'MUST',
    title: 'A request refused for its token, scope, workspace policy or workspace_id is not carried out',
    quotes: [
      '401 Unauthorized | The token is missing, malformed, expired or invalid.',
      'Rule: a request to an endpoint whose scope the token lacks returns `403 Forbidden`.',
      'Specific workspaces | Token may access only the selected workspaces; requests to others return `403 Forbidden`.',
      '`workspace_id` must be a positive number; zero, negative and non-numeric values are rejected.',
    ],
    latitude:
      "The document names the refusals, not in so many words that a refused request changes nothing; a refusal that carries out the request refuses nothing. GPU VMs and reserved IPs have no read endpoint (not shown), so the effect shows only by consuming: a GPU VM and a reserved IP of their own (the fifth deletable VM, the fourth releasable IP) are asked to be deleted and released without a token, with an unknown and the revoked token, by an identity lacking the scope, by one whose policy leaves out the workspace, and with workspace_id 0; each must be refused (any 4xx: the statuses are the AUTH, SCOPE, POLICY and WS rules'), and 50 ms after the last refusal the broadest identity deletes and releases them. Where the run's resources were made for it (a provision command, the sandbox), a 404 there (for the VM also a 409) fails when the run's delete or release of another such resource was accepted; with the profile's own resources it is no verdict (an earlier run may have consumed them). The NAT rule is sent the same refused updates, each setting a note of its own, and read back (an empty update by the broadest identity): holding one of those notes fails and names the request; another change is no verdict (another writer). A refusal answered otherwise than with a 4xx leaves the case without evidence.",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: [
      'mutations: true',
      'resources.natRules, or a fifth resources.deletableGpuVmIds entry or a fourth resources.releasableReservedIpIds entry',
    ],
    threats: [
      {
        mechanism: 'unawaited-promise',
        how: "The authentication middleware starts its token and scope lookup and calls `next()` before awaiting it: the handler runs and deletes the VM, and the lookup's 401 or 403 is the answer the client gets.",
      },
      {
        mechanism: 'act-before-check',
        how: 'The delete handler marks the VM deleting, then asks the policy service whether the caller may use the workspace, and answers its 403 without undoing the mark.',
      },
      {
        mechanism: 'middleware-order',
        how: 'A middleware that publishes every delete and release to the worker queue on receipt (for auditing) is mounted before authentication: the request is refused, and the worker carries it out anyway.',
      },
    ],
  },
  {
    id: 'ISO-1',
    level: 'MUST',
    title:
      'A resource of one workspace, asked through another workspace of the organization, is never returned, changed, deleted or released',
    quotes: [
      "Every request carries a `workspace_id` query parameter that scopes it to one workspace of the caller's organization. Workspaces isolate resources (for example production, staging, development).",
    ],
    latitude:
      "The status of a resource asked through the wrong workspace is not shown: 404 passes, and 403 passes for an identity that may not access the resource's workspace; an identity that holds the scope and may access both workspaces lacks nothing a 403 names (\"lacks the required scope or may not access the workspace\"), so a 403 to it fails; never a 2xx, nor a 409 (a conflict with the resource's current state is an answer about a resource the request's workspace does not hold: it was looked up outside it). The NAT rule update and enable-backups are also sent so with the primary's `workspace_id` as a member of the body, judged alike (a handler that takes the body's member over the query parameter reaches the resource in its own workspace). After the attempt the NAT rule is read back through its own workspace and must be unchanged; GPU VMs and reserved IPs have no read endpoint in the document (not shown), so for delete, release and enable-backups the answer is judged; a VM and an IP of their own (the fourth deletable VM, the third releasable IP) are then deleted and released through their own workspace: where the run's resources were made for it (a provision command, the sandbox), a 404 there (for the VM also a 409, when the run's delete of another such VM was accepted) fails, as the refused request removed them; with the profile's own resources it is no verdict (an earlier run may have consumed them). An X-Idempotency-Key reused with the same create in another workspace may start a new operation there or be refused (what a key is scoped to is not shown: A-IDEMPOTENCY-KEY-SCOPE); it must never be answered with the first workspace's acceptance record. The operation status path is not shown (NS-OPERATION-POLL-PATH); where the create answers a Location, the operation read there through the primary workspace must not be served through the secondary one (read by an identity that may use both). The bucket list asked through each workspace (read in both orders by up to three identities, and both at once) must hold no item naming another workspace and must not be the other workspace's list: where the profile says the workspaces hold different buckets (`resources.bucketListsDiffer`) an equal list fails; otherwise only a list that changes with what was read before fails, and two lists equal in every read leave that check skipped (item shape not shown: nothing else tells them apart).",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: [
      'resources (a restore, a NAT rule, GPU VMs or reserved IPs) and an identity that may use both workspaces',
    ],
    threats: [
      {
        mechanism: 'missing-workspace-filter',
        how: 'The handler fetches the resource by its id alone (`findById(restore_id)`), so any workspace of the organization reaches it, to read, change, delete or release.',
      },
      {
        mechanism: 'existence-leak',
        how: 'A resource of another workspace answers 403 "belongs to another workspace" to every token, one allowed in both workspaces included: the refusal reveals that the id exists and names a lack the token does not have.',
      },
      {
        mechanism: 'tenant-check-at-organization-level',
        how: "The ownership check compares the resource's organization with the token's, not the resource's workspace with `workspace_id`.",
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'A read-through cache stores records under their id, or the bucket list under its route, without the workspace, so what was fetched through one workspace is served to a request through another.',
      },
      {
        mechanism: 'global-key-space',
        how: "Idempotency answers are stored under the `X-Idempotency-Key` alone, so a request through another workspace with the same key is replayed the first workspace's operation record, naming its VM.",
      },
      {
        mechanism: 'parameter-pollution',
        how: 'The handler reads merged parameters (`{...query, ...body}`), so a `workspace_id` member of the body wins over the query parameter the workspace policy checked.',
      },
      {
        mechanism: 'act-before-check',
        how: 'Release runs `DELETE … WHERE id = $1 RETURNING workspace_id` and compares the workspace afterwards (a delete marks the VM deleting first): the other workspace is answered 404, but the resource is already gone.',
      },
    ],
  },
  {
    id: 'ASYNC-1',
    level: 'MUST',
    title: 'Async VM operations answer 202 with the operation acceptance record',
    quotes: [
      'Creating, deleting, starting, stopping and rebooting virtual machines are asynchronous: the endpoint answers `202 Accepted` with an operation record that can be polled.',
    ],
    latitude:
      'Extra fields in the record pass (A-RECORD-EXTRA-FIELDS). A create in the secondary workspace is sent only after the preflight allows creates there, by an identity holding vm.write whose policy allows it: a 401 or 403 fails, another refusal (4xx) is no evidence, as limits and quotas are not shown, and 5xx fails only when each of three creates, each with its own key, answers one.',
    targets: ALL,
    needs: ['mutations: true', 'resources.deletableGpuVmIds (delete)'],
    threats: [
      {
        mechanism: 'wrong-status',
        how: 'A handler written like a synchronous create answers 201 Created (or 200) with the record instead of 202 Accepted.',
      },
      {
        mechanism: 'framework-default',
        how: "The framework's default status for the method is left in place (201 for POST in NestJS, 200 or 204 for DELETE), because the handler never sets 202.",
      },
      {
        mechanism: 'missing-field',
        how: 'The acceptance record is built from the queue job, which lacks `submitted_at` (or the `vm_id` of a VM whose id is assigned later), so a required field is missing.',
      },
      {
        mechanism: 'synchronous-completion',
        how: 'The handler waits for the job to finish and answers the finished VM instead of an operation record that can be polled.',
      },
      {
        mechanism: 'non-atomic-id',
        how: 'The operation id is the last id read plus one, written when the job is stored, so overlapping creates get the same `operation_id` and polling one answers the other.',
      },
      {
        mechanism: 'narrow-id-scope',
        how: 'Operation ids are numbered per workspace but stored in a column unique across workspaces, so a create in a second workspace breaks the constraint and answers 500; rolled back, it gets the same id again every time.',
      },
    ],
  },
  {
    id: 'ASYNC-2',
    level: 'MUST',
    title: 'A freshly accepted operation reports status accepted and submitted_at in UTC',
    quotes: [
      '| status | string (a freshly accepted operation reports `accepted`) | yes |',
      'Types: `datetime` is an ISO 8601 timestamp in UTC.',
    ],
    latitude:
      "UTC written as `Z`, `+00:00` or `+00` (A-TIMESTAMP-UTC-NOTATION). A fresh `submitted_at` names about now: within 5 minutes of the answer's Date header, or 10 minutes of this machine's clock without one (A-TIMESTAMP-PLAUSIBILITY); on Prism, whose records are fixed examples, only the form is judged. Besides its own create and delete, every operation the run saw accepted (any workspace, any check) is held to status `accepted` and a UTC submitted_at in its first answer; a retry's answer may report the operation as it stands now.",
    targets: ALL,
    needs: ['mutations: true'],
    threats: [
      {
        mechanism: 'wrong-constant',
        how: "The status literal is copied from a neighbouring state list (the restores' `queued`) instead of `accepted`.",
      },
      {
        mechanism: 'unmapped-internal-state',
        how: "The record passes on the job queue's own state (`pending`, `waiting`) instead of mapping a fresh job to `accepted`.",
      },
      {
        mechanism: 'local-timezone',
        how: "`submitted_at` is formatted in the server's local time zone (a container with TZ set, a naive datetime given an offset) instead of UTC.",
      },
      {
        mechanism: 'default-string-conversion',
        how: "`submitted_at` is the database driver's or language's default string form (`2026-11-25 06:10:00+00`, Python's `str(datetime)`) with a space for `T`, not ISO 8601.",
      },
    ],
  },
  {
    id: 'ASYNC-3',
    level: 'SHOULD',
    title: "The delete's acceptance record names the VM in the path",
    quotes: ['| vm_id | string | yes |'],
    latitude: 'The document implies, without saying, that vm_id is the VM acted on: checked as SHOULD.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.deletableGpuVmIds'],
    threats: [
      {
        mechanism: 'wrong-variable',
        how: 'The record is filled from another variable in scope (the last VM of a loop, the job of another request), so `vm_id` names another VM.',
      },
      {
        mechanism: 'type-coercion',
        how: "The router parses the path's `vm_id` as a number and it is written back (`'0042'` becomes `42`, a long id is rounded), so the opaque string id of the path is not the one named.",
      },
      {
        mechanism: 'non-atomic-id',
        how: "Overlapping deletes read the same next operation id and the second job overwrites the first, so the record answered names the other request's VM.",
      },
    ],
  },
  {
    id: 'ASYNC-4',
    level: 'MUST',
    title:
      'Every operation accepted has an operation_id of its own, and every accepted create a vm_id of its own',
    quotes: [
      'Creating, deleting, starting, stopping and rebooting virtual machines are asynchronous: the endpoint answers `202 Accepted` with an operation record that can be polled.',
      '`string` identifiers are opaque.',
    ],
    latitude:
      "Identifiers are opaque, so nothing is read into their form; but an operation polled by its `operation_id` must be the only one with it. Judged on every acceptance record answered during the run, whichever check caused it, on a create in each of two workspaces, one after the other, and on two creates with the same body and keys of their own (the second may be refused, a VM name being taken; never answered with the first's operation). One operation is a create with one X-Idempotency-Key (a retry or replay with the key is the same operation) or a delete of one VM (a second delete answered with the first's record is STATE-1's to judge). Overlapping creates are CONC-2's; a key reused in another workspace is ISO-1's. Fewer than two accepted operations: inconclusive.",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true'],
    threats: [
      {
        mechanism: 'narrow-id-scope',
        how: 'Operation ids come from a sequence per workspace (or one per kind of job, creates and deletes in separate tables), so the first create of a second workspace, or the first delete, gets an id an earlier operation already has.',
      },
      {
        mechanism: 'time-based-id',
        how: 'The operation id is made from the request time to the second, so two operations accepted one after the other within a second share it.',
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'Accepted creates are remembered by a fingerprint of the body instead of the X-Idempotency-Key, so a second create with its own key and the same body is answered with the first operation and VM.',
      },
    ],
  },
  {
    id: 'IDEM-1',
    level: 'MUST',
    title: 'X-Idempotency-Key is required for VM create and delete',
    quotes: [
      'Header `X-Idempotency-Key` (string): required for VM create, VM delete and VM power operations;',
    ],
    latitude: 'Status of the rejection not shown: any 4xx passes (A-ERROR-STATUS-UNLISTED).',
    targets: ALL,
    needs: ['mutations: true'],
    threats: [
      {
        mechanism: 'missing-validation',
        how: 'The header is read when present but never required, so a create or delete without it is accepted.',
      },
      {
        mechanism: 'wrong-default',
        how: 'A missing key is replaced by a generated one (a UUID per request), so the request is accepted and a retry after a network failure is no longer safe.',
      },
      {
        mechanism: 'validation-skipped-on-route',
        how: 'The header requirement is declared on the create route, but the delete route (or a power action added later) was registered without it.',
      },
    ],
  },
  {
    id: 'IDEM-2',
    level: 'MUST',
    title: 'Retrying with the same key after a network failure is safe',
    quotes: [
      'retrying with the same key after a network failure is safe.',
      'Idempotency: the same `X-Idempotency-Key` may be reused when retrying a VM create, delete or power request.',
    ],
    latitude:
      'Only identical requests are replayed (A-IDEMPOTENCY-KEY-FORMAT); keys are strings compared exactly, so two keys that share a long beginning or differ only in letter case are two keys (a create with either refused is no verdict). How long a key is remembered is not shown (A-IDEMPOTENCY-RETENTION): at the end of the run a create accepted at most a minute before is retried once the requestTimeoutMs of the profile (default 10 s) has passed since its answer, with at least two other keys accepted in between, and must name the same operation and VM; a late retry refused with a 4xx is no verdict (nothing started twice, and a forgotten key cannot be told from a refused one).',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true'],
    threats: [
      {
        mechanism: 'column-truncation',
        how: 'Keys are kept in a VARCHAR(64) column with strict mode off, so two long keys that share their first 64 characters are one key and the second create is answered as a replay of the first.',
      },
      {
        mechanism: 'loose-comparison',
        how: "Keys are kept under MySQL's default collation (utf8mb4_0900_ai_ci), which compares without regard to case, so a create whose key differs from an earlier one only in letter case is answered as a replay of it.",
      },
      {
        mechanism: 'missing-lookup',
        how: 'The key is stored with the operation but never looked up on arrival, so a retry creates a second VM or a second delete operation.',
      },
      {
        mechanism: 'check-then-act-race',
        how: 'The key is looked up, then the handler awaits the create, then stores the answer, so a retry sent while the first request is still in flight (a client timeout shorter than the create) finds nothing and acts again.',
      },
      {
        mechanism: 'per-instance-state',
        how: 'Answers are remembered in process memory, so a retry the load balancer sends to another instance is not recognised and acts again.',
      },
      {
        mechanism: 'cache-eviction',
        how: 'Answers sit in a bounded LRU cache or under a TTL of seconds, so a retry after a longer network failure finds nothing and acts again.',
      },
    ],
  },
  {
    id: 'BILL-1',
    level: 'MUST',
    title: 'The client calls the preflight for the same workspace and creates only when allowed',
    quotes: [
      'Before any billable create request, call this endpoint for the same workspace; proceed only when `allowed` is true.',
    ],
    latitude:
      'Client-side rule: checked through @cloud-api/client with a recording fetch. Without mutations the create is answered by the recording fetch (dry run) instead of the target.',
    targets: ALL,
    threats: [
      {
        mechanism: 'wrong-variable',
        how: "The client's preflight names the workspace configured on the client instance rather than the one the create is sent to, so the decision is for another workspace.",
      },
      {
        mechanism: 'loose-comparison',
        how: 'The decision is tested for truthiness (`if (decision.allowed)`), so a string `"false"` or any other non-empty value lets the create proceed.',
      },
      {
        mechanism: 'validation-skipped-on-route',
        how: 'A billable create added to the client later (another product area) was written without the preflight call the other creates make.',
      },
    ],
  },
  {
    id: 'BILL-2',
    level: 'MUST',
    title: 'A denied, malformed or unavailable decision blocks the create in the client',
    quotes: [
      'A denied, malformed or unavailable decision blocks the create; the product request must not be sent.',
    ],
    latitude:
      'Client-side rule: the recording fetch alters the decision and never forwards a product request.',
    targets: ALL,
    threats: [
      {
        mechanism: 'fail-open',
        how: 'A network error or 5xx from the preflight is caught and treated as allowed, so that a billing outage does not block customers.',
      },
      {
        mechanism: 'wrong-default',
        how: 'A decision without a boolean `allowed` is read with a default of true (`decision.allowed !== false`, `allowed ?? true`), so a malformed decision lets the create through.',
      },
      {
        mechanism: 'unawaited-promise',
        how: 'The preflight call is not awaited (or its rejection is not handled), so the create is sent before, or regardless of, the decision.',
      },
    ],
  },
  {
    id: 'BILL-3',
    level: 'MUST',
    title: 'The decision is point-in-time: the client makes it immediately before each create',
    quotes: [
      'The decision is point-in-time and reserves no funds; it is performed immediately before creation.',
    ],
    latitude: 'Client-side rule; creates are dry runs unless the profile allows mutations.',
    targets: ALL,
    threats: [
      {
        mechanism: 'stale-cache',
        how: 'The client memoises the decision per workspace, so later creates reuse an answer given minutes earlier.',
      },
      {
        mechanism: 'request-coalescing',
        how: 'Creates started together share one in-flight preflight (a deduplicated promise), so only the first create is preceded by a decision of its own.',
      },
      {
        mechanism: 'hoisted-call',
        how: 'A batch create calls the preflight once before its loop, or at client construction, so the creates after the first are not preceded by a fresh decision.',
      },
    ],
  },
  {
    id: 'BILL-4',
    level: 'MUST',
    title: 'Callers do not send billing state to product endpoints',
    quotes: [
      'Callers do not send wallet balances, credit limits or other billing state to product endpoints.',
    ],
    latitude: 'Client-side rule; creates are dry runs unless the profile allows mutations.',
    targets: ALL,
    threats: [
      {
        mechanism: 'unsafe-spread',
        how: "The create body is built by spreading the caller's whole options object (`{...options}`), which carries the decision or a balance the application holds.",
      },
      {
        mechanism: 'shared-client-defaults',
        how: 'A header or body field set on the shared HTTP client for billing calls (a credit limit, a wallet id) is sent with every product request too.',
      },
      {
        mechanism: 'wrong-variable',
        how: "The create is sent with the preflight's body or decision object in place of the create's own fields.",
      },
    ],
  },
  {
    id: 'BILL-5',
    level: 'MUST',
    title: 'The preflight needs billing.read; the create needs only the product write scope',
    quotes: [
      'The token needs `billing.read` for this call. Create requests themselves need only the product write scope, because the gateway makes its own authoritative decision before forwarding a create, and it refuses when the decision cannot be made.',
    ],
    latitude:
      "A create for an identity holding vm.write without billing.read fails when refused with 401 or 403, and when refused otherwise (a 5xx, a 400) three more times while the same create is accepted for the broadest identity: the refusal is then the token's. Refused for every identity, or with 429, it is no evidence.",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['an identity lacking billing.read'],
    threats: [
      {
        mechanism: 'wrong-constant',
        how: 'The preflight route is guarded by the scope of the product being created (`vm.write`) instead of `billing.read`.',
      },
      {
        mechanism: 'over-strict-check',
        how: 'The create route also demands `billing.read` (a guard copied from the preflight), so a token holding only the product write scope is refused.',
      },
      {
        mechanism: 'token-passthrough',
        how: "The create handler calls the billing service with the caller's own token instead of the gateway's, so a token without `billing.read` cannot create.",
      },
      {
        mechanism: 'missing-authorization-check',
        how: 'The preflight, which only reads, is registered without a scope guard, so a token without `billing.read` may call it.',
      },
      {
        mechanism: 'implied-scope',
        how: "`billing.read` is treated as implied by any write scope, so a token holding only `vm.write` passes the preflight's check.",
      },
    ],
  },
  {
    id: 'BILL-6',
    level: 'MUST',
    title: 'The gateway refuses a billable create when its decision denies it',
    quotes: [
      'A denied, malformed or unavailable billing decision blocks a billable create at the gateway; the status code of that refusal: not shown.',
      'the gateway makes its own authoritative decision before forwarding a create, and it refuses when the decision cannot be made.',
    ],
    latitude:
      'Any non-2xx answer with a JSON `detail` passes (A-BILLING-REFUSAL-STATUS); create cloud VM is taken as a billable create (A-CREATE-VM-BILLABLE).',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'workspaces.billingDenied'],
    threats: [
      {
        mechanism: 'missing-authorization-check',
        how: "The create route forwards to the product service without the gateway's own decision step (the check was added to the preflight route only).",
      },
      {
        mechanism: 'fail-open',
        how: 'When the billing service is unavailable or times out, the gateway forwards the create anyway instead of refusing because the decision cannot be made.',
      },
      {
        mechanism: 'stale-cache',
        how: 'The gateway caches `allowed: true` per workspace, so a workspace denied since keeps creating until the entry expires.',
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: "The gateway's decision cache is keyed by organization or SKU without the workspace, so an allowed workspace's decision is applied to a denied workspace of the same organization.",
      },
      {
        mechanism: 'loose-comparison',
        how: 'The billing service\'s answer is tested for truthiness, so `"false"`, `0` or `{}` is read as allowed.',
      },
      {
        mechanism: 'mass-assignment',
        how: "The create body is bound onto the request context wholesale, so an `allowed: true` the client passes along (the preflight answer it was given) stands in for the gateway's own decision.",
      },
    ],
  },
  {
    id: 'BILL-7',
    level: 'MUST',
    title: 'The preflight answers a decision containing a boolean allowed',
    quotes: ['Response: decision containing `allowed` (boolean).'],
    latitude: 'Any 2xx status (A-SUCCESS-STATUS-UNNUMBERED); other decision fields are not shown and pass.',
    targets: ALL,
    threats: [
      {
        mechanism: 'wrong-serialisation',
        how: '`allowed` is written as the string `"true"`/`"false"` (from a text column, a form-encoded upstream answer, a template).',
      },
      {
        mechanism: 'type-coercion',
        how: "The value comes from the database as 0 or 1 (MySQL's TINYINT(1), SQLite) and is serialised as a number.",
      },
      {
        mechanism: 'zero-value-omitted',
        how: "The serializer drops false fields (Go's `omitempty`), so a denied decision has no `allowed` at all.",
      },
      {
        mechanism: 'envelope',
        how: 'A response interceptor wraps the decision (`{"data": {"allowed": true}}`), so the body has no top-level `allowed`.',
      },
    ],
  },
  {
    id: 'ERR-1',
    level: 'MUST',
    title: 'Errors return a JSON object with a string detail',
    quotes: [
      'Errors return a JSON object with a `detail` field. Example shape: `detail` is a human-readable string.',
    ],
    latitude:
      'Internal structure of the `ErrorDetail` type: not shown — extra fields pass. Errors asked with another Accept header (XML, a browser list, plain text, */*) are still JSON objects with detail: "All responses are JSON." So are the errors a router answers before any handler: a GET on a path no endpoint has (with and without a token, at the base and under a product area) and a GET on a path the document gives POST or PATCH only; only GETs are sent there (a path may hold an endpoint the document does not show), and a success is no verdict.',
    targets: ALL,
    threats: [
      {
        mechanism: 'framework-default',
        how: "Errors raised before the application's handler runs (the body parser, the router's 404 or 405) are answered by the framework's default handler, in text/plain or HTML.",
      },
      {
        mechanism: 'wrong-field-name',
        how: 'Errors are written as `{"message": ...}` or `{"error": ...}`, the default shape of the framework or of another team\'s services.',
      },
      {
        mechanism: 'wrong-serialisation',
        how: "`detail` carries the validator's list of issues or a nested object (FastAPI's validation errors put a list in `detail`), not a human-readable string.",
      },
      {
        mechanism: 'middleware-order',
        how: 'The JSON error handler is registered before the routes (Express needs it after them), so errors the handlers throw reach the default HTML handler.',
      },
      {
        mechanism: 'proxy-rewrite',
        how: 'The gateway or load balancer answers some errors itself (an HTML 502 or 413 page, a 401 from the edge), which are not JSON.',
      },
      {
        mechanism: 'content-negotiation',
        how: "The error controller negotiates the format (Spring's default), so an error asked with a browser's Accept list is answered with an HTML error page, not the JSON object with detail.",
      },
    ],
  },
  {
    id: 'ERR-2',
    level: 'MUST',
    title: 'A resource that does not exist returns 404',
    quotes: ['404 Not Found | The resource was not found.', '`string` identifiers are opaque.'],
    latitude:
      'Ids never seen and ids one character longer or shorter than a real one of the profile (a restore, each id of the NAT rule path) name no resource: identifiers are opaque, so a lookup by prefix or by the number in an id finds the wrong record.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    threats: [
      {
        mechanism: 'loose-comparison',
        how: "The id is looked up with `LIKE :id || '%'`, or by the number it contains, so a cut-off or extended id finds a real resource and answers 200.",
      },
      {
        mechanism: 'placeholder-record',
        how: "A lookup that finds nothing returns an empty or default record (an ORM's `first_or_new`, a zero-value struct), answered 200.",
      },
      {
        mechanism: 'idempotent-delete',
        how: 'Delete and release are made idempotent by design, so an unknown VM or reserved IP answers 202 or 204 instead of 404.',
      },
      {
        mechanism: 'unhandled-exception',
        how: "The ORM's not-found exception (`EntityNotFound`, `DoesNotExist`) is not mapped to 404, and the generic handler answers 500.",
      },
      {
        mechanism: 'null-dereference',
        how: 'The handler reads a property of the record before checking that it was found (`record.workspace_id`), and the TypeError is answered 500.',
      },
    ],
  },
  {
    id: 'ERR-3',
    level: 'MUST',
    title: 'Invalid requests are client errors, never 5xx',
    quotes: ['400 Bad Request | The request is invalid (listed for enable-backups and update-NAT-rule).'],
    latitude:
      'Any status below 500 passes for malformed input. A connection closed without an answer, again on a connection of its own, while a bucket list sent right after is answered, fails: the target crashes on that input (a drop that does not repeat is a transport failure, incomplete).',
    targets: STATEFUL,
    whyNotPrism:
      'Prism answers some malformed input with its own 5xx-free problem documents but also with examples; it is not an implementation.',
    threats: [
      {
        mechanism: 'unhandled-exception',
        how: "The JSON body parser's SyntaxError, or a conversion that throws (`BigInt()`, `int()`), reaches the generic error handler, which answers 500.",
      },
      {
        mechanism: 'type-confusion',
        how: 'Code written for an object body uses `in`, `Object.keys` or property access on a string, number or null body and throws a TypeError, answered 500.',
      },
      {
        mechanism: 'null-dereference',
        how: 'A nested optional object is dereferenced without a check (`body.schedule.hour`), so a body that leaves it out, or sends null, throws and is answered 500.',
      },
      {
        mechanism: 'unmapped-database-error',
        how: 'An invalid value reaches the database unvalidated and its type or range error (text for an integer column) surfaces as 500.',
      },
    ],
  },
  {
    id: 'NEG-1',
    level: 'MUST',
    title: 'Request bodies the document rules out are refused with a 4xx and change nothing',
    quotes: [
      'JSON request and response bodies; `Content-Type: application/json` when a body is sent.',
      '400 Bad Request | The request is invalid (listed for enable-backups and update-NAT-rule).',
      '| protocol | enum | `tcp`, `udp` |',
    ],
    latitude:
      'Generated from the spec\'s request schemas: malformed JSON, JSON that is not an object (array, string, number, true), a field of a type no reading of the document allows (an object or array for a scalar, text for an integer or a boolean), a value outside an enum. Any 4xx passes (A-ERROR-STATUS-UNLISTED). Lenient coercions some frameworks make (the string "2" for an integer, a number for a string, `null` for a body) are not generated. A refused PATCH must leave the NAT rule as it was. A PATCH naming a field twice, once with the rule\'s own value and once with a value the schema rules out (both orders), may be refused or read either way RFC 8259 allows, but never store the ruled-out value.',
    targets: STATEFUL,
    whyNotPrism:
      'Prism validates requests but answers from examples; it keeps no state to show that nothing changed.',
    needs: ['mutations: true (bodies are sent to operations that change state when they accept)'],
    threats: [
      {
        mechanism: 'validated-copy-not-used',
        how: 'The gateway validates the body with a first-match field lookup (gjson) while the service decodes it last-wins, so a name given twice, first valid and then not, is validated as one value and stored as the other.',
      },
      {
        mechanism: 'missing-validation',
        how: 'A hand-written partial schema for the PATCH lost the `protocol` enum, so `icmp` is accepted and stored.',
      },
      {
        mechanism: 'unsafe-spread',
        how: 'The body is copied with `{...body}` before it is validated, so an array becomes an object of its indexes and a number or `true` an empty object, both accepted.',
      },
      {
        mechanism: 'validation-skipped-on-route',
        how: 'A route thought to "only read" (the billing preflight) was registered without its body schema, so bodies of any type are answered 2xx.',
      },
      {
        mechanism: 'swallowed-error',
        how: 'A body JSON.parse cannot read is caught and replaced by `{}`, so malformed JSON is accepted as an empty body.',
      },
      {
        mechanism: 'type-coercion',
        how: "The validator coerces types (ajv with `coerceTypes: 'array'` turns `[8080]` into 8080), so a field of a type no reading of the document allows is accepted.",
      },
      {
        mechanism: 'non-transactional-write',
        how: 'The update is applied field by field as each is validated, so a body refused at its third field has already changed the first two.',
      },
      {
        mechanism: 'lenient-parse',
        how: "The body is read by a streaming decoder that stops after the first JSON value (Go's `json.Decoder`), so a valid body followed by more text, or by a second object, is accepted.",
      },
    ],
  },
  {
    id: 'NEG-2',
    level: 'SHOULD',
    title: 'Unknown and read-only fields in a NAT rule update are refused or ignored, never applied',
    quotes: ['Body, every field optional (partial update):'],
    latitude:
      'The document is silent on fields outside the body table: a 4xx, or a 2xx that ignores them, passes; a record showing the sent value of a read-only field (status, timestamps, error_message) fails, and a status so written is sent back (a target that writes what it is sent would otherwise refuse every later update). The rule\'s ids and workspace written from the body are REC-1\'s, a MUST. JSON member names are case-sensitive, so a documented field spelt in another letter case (`NOTE`, `Name`, `ENABLED`, `PROTOCOL`) is an unknown member too: written to the field it spells, it fails (SHOULD, as mainstream decoders match names case-insensitively by default); `PROTOCOL: "icmp"` written to protocol also breaks ENUM-1 and RESP-1, which fail the run.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.natRules'],
    threats: [
      {
        mechanism: 'mass-assignment',
        how: "The PATCH copies the whole body onto the rule (`Object.assign(rule, body)`, an ORM's `update(**body)`), so `status`, ids, timestamps and `workspace_id` are written.",
      },
      {
        mechanism: 'reversed-merge-order',
        how: 'The server-managed fields are set first and the body is spread after them (`{...rule, updated_at: now, ...body}`), so a sent `updated_at` or `status` wins.',
      },
      {
        mechanism: 'replace-not-merge',
        how: 'The update saves the body as the new record (PUT semantics), so read-only fields sent in it overwrite the stored ones.',
      },
      {
        mechanism: 'loose-comparison',
        how: 'The body is validated by exact member names, then decoded into the rule by a decoder that matches names case-insensitively (Go\'s encoding/json): `PROTOCOL: "icmp"` passes the validator as an unknown member and is stored as the protocol.',
      },
    ],
  },
  {
    id: 'STATE-1',
    level: 'SHOULD',
    title: 'Operations on a resource the run consumed are refused',
    quotes: [
      '409 Conflict | The request conflicts with the current resource state (listed for enable-backups, delete GPU VM, update NAT rule, release reserved IP).',
      '404 Not Found | The resource was not found.',
    ],
    latitude:
      "No sentence says what a second delete of a deleting GPU VM, enabling its backups, or a second release of a released IP answers: 404 or 409 pass, and so does a 202 with the first delete's operation (the delete still in progress); a fresh 202/204 fails; checked as SHOULD. The run's delete goes out with a second delete of the same VM, with its own key, at the same moment: that one may be refused with 404 or 409 or answered with the same operation, not accepted as another nor refused with a status the document does not list. Enabling backups twice is BACKUP-1's (A-BACKUP-ENABLE-TWICE).",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.deletableGpuVmIds or resources.releasableReservedIpIds'],
    threats: [
      {
        mechanism: 'soft-delete-not-filtered',
        how: 'Released IPs and deleted VMs are kept as soft-deleted rows the lookup does not filter, so a second release or delete is accepted again.',
      },
      {
        mechanism: 'idempotent-delete',
        how: 'Delete and release are idempotent by design and answer a fresh 202 or 204 for a resource the run already consumed.',
      },
      {
        mechanism: 'check-then-act-race',
        how: 'The state is checked, then the handler awaits, then the state is written, so two deletes of one VM (or two releases of one IP) in flight both pass the check and both are accepted.',
      },
      {
        mechanism: 'framework-default',
        how: "The delete takes a lock on the VM, and the lock library's own refusal (423 Locked) goes out for a second delete while the first holds it, instead of the documented 409.",
      },
      {
        mechanism: 'stale-cache',
        how: 'The resource is read from a cache the delete or release did not invalidate, so the consumed resource still looks available to the next request.',
      },
    ],
  },
  {
    id: 'RESP-1',
    level: 'MUST',
    title: 'All responses are JSON; a success returns the resource itself',
    quotes: ['All responses are JSON. A successful response returns the resource itself, not an envelope.'],
    latitude:
      'Extra fields pass; schemas carrying x-assumptions are relaxed here and checked by RESP-3. Reads sent with another Accept (XML, a browser list, plain text, */*) must still be answered JSON; a 406 with a JSON error body passes. JSON is read as RFC 8259 has it between systems: UTF-8, one Content-Type, and a name given twice in an object only with the same value both times. A documented integer field (a port, a backup count or schedule field) written with a fraction or an exponent (`7.0`) fails: JSON Schema counts it an integer, but a typed client refuses it.',
    targets: ALL,
    threats: [
      {
        mechanism: 'envelope',
        how: 'A response interceptor or resource class wraps every success in `{"data": ...}` (Laravel\'s API resources do by default).',
      },
      {
        mechanism: 'missing-field',
        how: 'The record is written through a hand-written view or DTO that lacks a required field added to the model later (`storage_backend`).',
      },
      {
        mechanism: 'wrong-header',
        how: 'Successful answers are sent as strings (`res.send(JSON.stringify(x))`), labelled `text/html` or `text/plain` instead of JSON.',
      },
      {
        mechanism: 'default-string-conversion',
        how: "Timestamps are the database driver's or language's default string form, with a space for `T`, which lenient date-time validators accept.",
      },
      {
        mechanism: 'content-negotiation',
        how: 'The framework picks the format from the Accept header and answers XML or HTML to a request that does not ask for JSON.',
      },
      {
        mechanism: 'zero-value-omitted',
        how: "The serializer drops fields holding false or 0 (Go's `omitempty`), so a required field that is false (`incremental_enabled` of a backup policy) disappears from the record.",
      },
      {
        mechanism: 'wrong-serialisation',
        how: 'The answer is JSON built by hand (a template, or a prefix written before the serialised record), so a name the record also holds appears twice, `{"status":"queued", ..., "status":"accepted"}`: JavaScript reads the last value, other parsers the first.',
      },
      {
        mechanism: 'charset-truncation',
        how: 'Text stored through a Latin-1 column or connection is sent back as its raw bytes, so the body is not UTF-8 and each client decodes it differently.',
      },
      {
        mechanism: 'proxy-rewrite',
        how: "A gateway adds its own Content-Type after the service's, so the answer carries two; a client may read either.",
      },
    ],
  },
  {
    id: 'RESP-2',
    level: 'MUST',
    title: 'Release reserved IP answers 204 with no body',
    quotes: ['No body. Response 204 with no body. Errors: 401, 403, 404, 409.'],
    latitude:
      "A 404 or 409 for the profile's IP is no verdict (an earlier run may have released it), unless the run's resources were made for it (a provision command, the sandbox): nothing released that IP before, so a 404 fails.",
    targets: ALL,
    needs: ['mutations: true', 'resources.releasableReservedIpIds'],
    threats: [
      {
        mechanism: 'wrong-status',
        how: 'The release handler answers 200 with the released IP, as the other handlers answer with their resource.',
      },
      {
        mechanism: 'framework-default',
        how: "The handler ends the response without setting a status, so the framework's default 200 goes out.",
      },
      {
        mechanism: 'wrong-serialisation',
        how: "A response interceptor serialises the handler's `undefined` result as `null` or `{}`, so the answer carries a body (and often becomes 200).",
      },
      {
        mechanism: 'gateway-retry',
        how: 'The gateway retries the DELETE after a per-try timeout shorter than the cloud call: the slow first attempt released the IP, the retry finds nothing, and the client gets its 404.',
      },
    ],
  },
  {
    id: 'RESP-3',
    level: 'MUST',
    title: 'A list is returned itself, as a JSON array, not wrapped in an envelope',
    quotes: [
      'All responses are JSON. A successful response returns the resource itself, not an envelope.',
      '| List buckets | GET | /object-storage/buckets | object-storage.read | bucket list (shape of items: see Resources) |',
    ],
    latitude:
      'The shape of a bucket is not shown: any items pass. An object wrapping the list (`{"items": [...]}`) is the envelope general rule 2 excludes (A-BUCKET-LIST-ARRAY). Judged on the lists of every workspace the profile names, read by an identity allowed there (a 404 for one fails: an empty list is still a list), and on every bucket list served during the run, whichever check asked for it.',
    targets: ALL,
    threats: [
      {
        mechanism: 'pagination-envelope',
        how: 'Pagination added to the bucket list wraps it as `{"items": [...], "next": ...}`.',
      },
      {
        mechanism: 'wrong-serialisation',
        how: 'The buckets are held in a Set or Map and serialised with JSON.stringify, which writes `{}`.',
      },
      {
        mechanism: 'envelope',
        how: 'A response interceptor wraps every answer, lists included, in `{"data": ...}`.',
      },
      {
        mechanism: 'nil-collection',
        how: 'A workspace without buckets holds a nil slice or None, which is written as `null` instead of `[]`.',
      },
      {
        mechanism: 'wrong-status',
        how: 'An empty collection is taken for a missing resource: a findOrFail on the list, or a handler that answers an empty result with 404 "No buckets found".',
      },
    ],
  },
  {
    id: 'PATCH-1',
    level: 'MUST',
    title: 'PATCH NAT rule is a partial update returning the updated record',
    quotes: [
      'Body, every field optional (partial update):',
      'a rule update (PATCH) returns the updated rule record.',
    ],
    latitude:
      "A 409 for a conflicting value is tolerated; the rule is restored afterwards. An update changes neither created_at (the rule was created once; the same instant, whatever its spelling) nor any field it did not send. Text (name, note) is any Unicode, emoji included; which characters a field allows is not shown, so a 400 for text beyond printable ASCII is no verdict, but text accepted must be answered and kept as sent. Which internal IPs the VPC of the rule accepts is not shown either: new ones are taken beside the current one (its /24), and a 400 for one is no verdict. Nor are the bounds of ports: a 400 for a port past 65535 is no verdict, but one accepted must be kept as sent. An update restating the rule's own values conflicts with nothing: it must be answered 200 with them, never 409. A refused update (400, 409) is refused whole: read back, the rule must not show any field it sent (RFC 5789: a patch that cannot be applied entirely is not applied at all).",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.natRules'],
    threats: [
      {
        mechanism: 'upsert-instead-of-insert',
        how: 'The update saves the rule with INSERT OR REPLACE: the row is written anew, and its created_at column default stamps it created at the moment of the update.',
      },
      {
        mechanism: 'type-coercion',
        how: 'The ports are kept in a text column (or a framework binds the JSON number to a string field), so the updated record, and every later read, carries "8443" where the document types an integer.',
      },
      {
        mechanism: 'replace-not-merge',
        how: 'The update saves the body as the new record (PUT semantics, `save(body)`), so fields not sent are reset to defaults or blanked.',
      },
      {
        mechanism: 'lost-write',
        how: 'The change is made to a copy (or in a transaction never committed), and the answer is the rule unchanged.',
      },
      {
        mechanism: 'lost-update',
        how: 'The rule is read, the handler awaits, and the whole record it read is written back with the sent fields on top, so an update that landed in between is lost.',
      },
      {
        mechanism: 'read-after-write-lag',
        how: 'The updated rule is read back from a replica or cache after the write, so the answer shows the rule as it was before the update.',
      },
      {
        mechanism: 'falsy-default',
        how: 'Fields are merged with `body.field || rule.field`, so a sent `enabled: false` or `note: ""` is ignored.',
      },
      {
        mechanism: 'charset-truncation',
        how: 'The name and note are stored in utf8mb3 columns (MySQL with strict mode off), which cut a value at its first emoji, so the record answered and read back is not the one sent.',
      },
      {
        mechanism: 'framework-default',
        how: "The request binder trims every string (a framework's default string trimmer), so a name or note sent with spaces around it is stored without them.",
      },
      {
        mechanism: 'column-truncation',
        how: 'The name is kept in a VARCHAR(32) column with strict mode off, so a longer name is stored cut short and answered 200.',
      },
      {
        mechanism: 'unmapped-database-error',
        how: 'A note holding a NUL character reaches PostgreSQL, which refuses it in text; the error is not mapped and the update answers 500.',
      },
      {
        mechanism: 'over-strict-check',
        how: "The external port's uniqueness check does not leave the rule itself out, so an update restating the rule's own port (a client sending the whole form back) is refused with 409.",
      },
      {
        mechanism: 'non-transactional-write',
        how: 'The update runs one autocommit UPDATE per field in body order, so a constraint failing on a later field (a port past 65535) answers 400 while the fields written before it stay written: a refused update half applied.',
      },
    ],
  },
  {
    id: 'BACKUP-1',
    level: 'MUST',
    title: 'Enable backups with an empty body applies the documented defaults',
    quotes: [
      'Enables automated backups and creates the VM backup policy.',
      'Body (all optional; an empty object is valid):',
      '| retention_days | integer | 7 |',
      '| full_backup_interval_days | integer | 7 |',
      '| incremental_enabled | boolean | true |',
      '| timezone | string | no | UTC | |',
      '| hour | integer | no | 20 | |',
      '| minute | integer | no | 0 | |',
      '| window_minutes | integer | no | 30 | |',
    ],
    latitude:
      'Enabling twice may answer 409 or 200 with the existing policy (A-BACKUP-ENABLE-TWICE); a VM that already has a policy skips the defaults check.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.gpuVmIds'],
    threats: [
      {
        mechanism: 'wrong-default',
        how: 'The defaults are copied from another product or an older version of the document (retention 14 days, a 60-minute window) instead of the documented ones.',
      },
      {
        mechanism: 'upsert-instead-of-insert',
        how: 'Enable is an upsert, so a second enable replaces the policy (a new `policy_id`) instead of answering 409 or the existing policy.',
      },
      {
        mechanism: 'local-timezone',
        how: "The `timezone` default is the server's own zone (the container's TZ, a database session time zone) instead of UTC.",
      },
      {
        mechanism: 'zero-value-omitted',
        how: "The serializer drops zero values, so the default `minute` 0 is missing from the policy's schedule.",
      },
      {
        mechanism: 'check-then-act-race',
        how: 'Enable checks for an existing policy, awaits, then inserts, so two enables in flight both create a policy, with different ids.',
      },
      {
        mechanism: 'unawaited-promise',
        how: 'The policy row is inserted with `enabled` false and a background job switches it on; the answer is the inserted row, so the policy "enable" returns is disabled.',
      },
    ],
  },
  {
    id: 'BACKUP-2',
    level: 'MUST',
    title: 'Enable backups with explicit values creates a policy that shows every value sent',
    quotes: [
      'Enables automated backups and creates the VM backup policy.',
      '| schedule | BackupPolicySchedule | none stated |',
      '| retention_days | integer | 7 |',
      '| full_backup_interval_days | integer | 7 |',
      '| incremental_enabled | boolean | true |',
      '| timezone | string | no | UTC | |',
      '| day_of_week | integer | no, nullable | none | |',
      'Response 200: backup policy record.',
    ],
    latitude:
      "Bounds are not shown: values stay inside A-POSITIVE-BACKUP-VALUES (retention 1-14 days, full backups every 1-7 days and never past the retention, hour 0-23, minute 0-59, window 30-60 minutes). The schedule time zone is UTC, Europe/Berlin or America/New_York (IANA names; which names a target accepts is not shown, so a 400 for a zone other than UTC is no verdict); day_of_week is sent as null (it is nullable, and null may come back absent: A-OPTIONAL-FIELD-ABSENT) and as 3 on the weekly schedule (a weekday whether days count from 0 or 1); requested_by is sent once and not compared (the policy record has no such field). A second enable may answer 409 or 200 with the same policy (A-BACKUP-ENABLE-TWICE), which must still show the values. The policy must be the one of the VM the path named (vm_id), in the workspace of the request, created and updated about now (A-TIMESTAMP-PLAUSIBILITY), created_at not after updated_at. The third VM gets a partial body (retention_days only, at least 7 days) with a partial schedule (frequency weekly and day_of_week 0 only: kept as 0, never read as no day; refused, whether days count from 0 not being shown, it is sent again with day_of_week 3): the fields it leaves out must show their documented defaults (full backups every 7 days, incremental true; UTC, 20, 0, 30). The first VM's hourly schedule leaves out its hour (20 by default whatever the frequency); the second VM's daily schedule sends hour 0 in every run (midnight, never read as no hour). Three more GPU VMs, where listed, ask one question each, so that a refusal of one hides nothing of the others: a weekly schedule without day_of_week (no day is invented: its default is none); a retention of 35 days (kept as sent, or refused: a 400 is no verdict; never capped); full backups every day with incrementals on (kept as sent, or refused: a 400 is no verdict; never turned off). A profile listing fewer than eight GPU VMs gets the questions it leaves out reported as not checked. The first VM is first sent a schedule of frequency \"fortnightly\" (no such value): refused, it leaves no policy behind, so where the run's resources were made for it (a provision command, the sandbox) a 409 for the valid enable after it fails. A schedule sent without day_of_week never shows one.",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.gpuVmIds (a third to eighth GPU VM without a backup policy)'],
    threats: [
      {
        mechanism: 'act-before-check',
        how: 'The policy row is committed before the scheduler checks the schedule: an invalid schedule is refused with 400, but the policy stays, and the next valid enable gets 409.',
      },
      {
        mechanism: 'silent-business-rule',
        how: 'A business rule turns incremental_enabled off when full backups run every day ("incrementals are pointless"), instead of keeping what was sent or refusing it.',
      },
      {
        mechanism: 'falsy-default',
        how: 'Defaults are filled with `value || default`, so a sent `incremental_enabled: false` becomes true and `hour: 0` becomes 20.',
      },
      {
        mechanism: 'wrong-default',
        how: 'A body that sends some fields is bound to the model, so the fields it leaves out take the column defaults (`full_backup_interval_days` 1, `incremental_enabled` false); only an empty body goes through the documented defaults.',
      },
      {
        mechanism: 'reversed-merge-order',
        how: 'The schedule is merged as `{...sent, ...defaults}`, so the defaults overwrite the timezone, hour, minute and window sent.',
      },
      {
        mechanism: 'wrong-field-name',
        how: 'A body field is mapped to a model attribute of another name (`full_backup_interval` for `full_backup_interval_days`), so the sent value is dropped and the default stored.',
      },
      {
        mechanism: 'wrong-constant',
        how: 'The scheduler was written for UTC only, so the time zone column is filled with the constant `UTC` whatever was sent.',
      },
      {
        mechanism: 'missing-field',
        how: "The schedule's view maps the columns it knows and leaves `day_of_week` out, so a weekly policy's day comes back null.",
      },
      {
        mechanism: 'type-coercion',
        how: 'The value goes through a NUMERIC or BIGINT column that the driver returns as a string (node-postgres does), so `retention_days` comes back as `"10"`.',
      },
      {
        mechanism: 'internal-id-exposed',
        how: "The policy row's foreign key (the VM's internal row number) is serialised as vm_id instead of the VM's public id, so the policy names another VM.",
      },
      {
        mechanism: 'replace-not-merge',
        how: 'A schedule sent is decoded into a struct whole, so the fields it leaves out are zero values (hour 0, an empty time zone) instead of the documented defaults, which only an absent schedule gets.',
      },
      {
        mechanism: 'local-timezone',
        how: "The policy's created_at and updated_at are the server's local time written with `Z`, hours from the moment the policy was created.",
      },
    ],
  },
  {
    id: 'ENUM-1',
    level: 'MUST',
    title: 'Enum fields only take their documented values',
    quotes: [
      '| status | enum | yes | `provisioning`, `available`, `error`, `deleting` |',
      '| status | enum | yes | `queued`, `running`, `succeeded`, `failed`, `cancelled` |',
      '| target_mode | enum | yes | `replace`, `new_vm`, `volume_only` |',
      '| recovery_point_type | enum | no | `backup`, `snapshot` |',
      '| last_status | enum | no | `queued`, `running`, `succeeded`, `failed`, `cancelled` |',
    ],
    targets: ALL,
    needs: ['resources.restoreIds or resources.natRules'],
    threats: [
      {
        mechanism: 'unmapped-internal-state',
        how: 'The record passes on an internal status the document does not list (`active`, `completed`, `pending`) instead of mapping it to a documented value.',
      },
      {
        mechanism: 'wrong-serialisation',
        how: 'Enums are serialised by their internal key (`NEW_VM`) or ordinal (`2`) instead of their value (`new_vm`).',
      },
      {
        mechanism: 'wrong-default',
        how: "A record created without a state gets the database column's default (`new`, an empty string), a value outside the enum.",
      },
    ],
  },
  {
    id: 'CONC-1',
    level: 'MUST',
    title: 'Copies of one keyed create in flight at once start one operation',
    quotes: [
      'retrying with the same key after a network failure is safe.',
      'Idempotency: the same `X-Idempotency-Key` may be reused when retrying a VM create, delete or power request.',
    ],
    latitude:
      'A client whose answer was lost cannot know whether its first request is still being processed, so a retry may overlap it. How the overlapping copy is answered is not shown (A-IDEMPOTENCY-IN-FLIGHT): the same acceptance record or any 4xx passes; two operations or two VMs for one key fail. Four copies go out at once, then twice three or four spaced by 0 to 5 ms (a correct target makes one VM of them however many; each more copy is one more chance for a check-then-insert race to show). A run that cannot put two requests in flight together (concurrency 1, a rate limit) is inconclusive, not passed.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'concurrency of 2 or more'],
    threats: [
      {
        mechanism: 'placeholder-record',
        how: 'The idempotency row is inserted with a placeholder answer before the work runs, and a copy that arrives meanwhile is replayed it: 202 naming no operation, so its client cannot learn what the retry started.',
      },
      {
        mechanism: 'check-then-act-race',
        how: 'The stored answer for the key is looked up, the create awaits the database, and the answer is stored only afterwards: a copy arriving in between finds nothing and creates a second VM.',
      },
      {
        mechanism: 'cache-eviction',
        how: 'Stored answers live in a cache per instance: a copy routed to another instance of the service does not see the first one and starts a new operation.',
      },
      {
        mechanism: 'missing-lookup',
        how: 'The retry path of a framework middleware replays only completed answers; a copy of a request still in progress goes straight to the handler.',
      },
    ],
  },
  {
    id: 'CONC-2',
    level: 'MUST',
    title: 'Creates in flight at once, each with its own key, are distinct operations for distinct VMs',
    quotes: [
      'Creating, deleting, starting, stopping and rebooting virtual machines are asynchronous: the endpoint answers `202 Accepted` with an operation record that can be polled.',
      '`string` identifiers are opaque.',
    ],
    latitude:
      'Identifiers are opaque, so nothing is read into their form; but an operation that can be polled by its `operation_id`, and a VM named by its `vm_id`, must each be the only one with that identifier. Refusals (a billing decision, a rate limit) are no evidence either way.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'concurrency of 2 or more'],
    threats: [
      {
        mechanism: 'non-atomic-id',
        how: 'The next VM id is the row count (or the highest id) read, plus one, written back later: two overlapping creates read the same number.',
      },
      {
        mechanism: 'time-based-id',
        how: 'The operation id is made from the request time to the second, so creates accepted in the same second share it.',
      },
      {
        mechanism: 'check-then-act-race',
        how: 'A uniqueness check on the generated name or id runs before an await and the insert after it, so two creates both pass it.',
      },
    ],
  },
  {
    id: 'CONC-3',
    level: 'MUST',
    title: 'Partial updates of one NAT rule in flight at once lose neither change',
    quotes: [
      'Body, every field optional (partial update):',
      'a rule update (PATCH) returns the updated rule record.',
    ],
    latitude:
      'Two updates of different fields overlap; once both are answered, the rule must show every change answered 200. A 409 for one of them is a documented conflict (A-CONCURRENT-UPDATE-CONFLICT) and must change nothing. The rule is restored afterwards.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.natRules', 'concurrency of 2 or more'],
    threats: [
      {
        mechanism: 'lost-update',
        how: 'The handler reads the rule, awaits, and writes back the whole record with the sent fields on top, overwriting an update that landed in between.',
      },
      {
        mechanism: 'replace-not-merge',
        how: 'The ORM saves the entity loaded at the start of the request, every column included, so the columns another request changed meanwhile are reset.',
      },
      {
        mechanism: 'stale-cache',
        how: 'The rule is read from a cache that the other update has not refreshed yet, and the write is built from that stale copy.',
      },
    ],
  },
  {
    id: 'PARAM-1',
    level: 'MUST',
    title: 'A value sent in another form is refused, or read as exactly the value it spells',
    quotes: [
      WS_QUOTE_A,
      'Path parameters are strings and are required: `vm_id` (virtual machine ID), `restore_id` (restore operation ID), `vpc_id`, `nat_gateway_id`, `port_forwarding_rule_id`, `reserved_ip_id`.',
      '`string` identifiers are opaque.',
      'JSON request and response bodies; `Content-Type: application/json` when a body is sent.',
      '| external_port | integer | |',
      '| protocol | enum | `tcp`, `udp` |',
      '| enabled | boolean | |',
    ],
    latitude:
      "Forms are derived from each parameter's and body field's schema, not listed: for any text, whitespace or control characters around it (around a path id, another identifier, since identifiers are opaque: it must not be served as this one, as a lookup that trims or stops at a NUL does), every character percent-encoded, percent-encoded twice, an encoded slash inside it (another value, which must be refused with the JSON error shape), another letter case (another identifier, since identifiers are opaque: it must not be served as this one), a query parameter given twice; for a number written as text (workspace_id), its digits in other Unicode scripts or in superscript, a NUL inside it, and the numbers 2^32 and 2^64 above it (other IDs, which a wrapping parser reads as this one); for body fields, a number or boolean as text, a boolean as 0/1, an enum value in another case or padded, text as a number or as `true` (which spells \"true\", if accepted), an integer 2^32 away, an integer written with a fraction (`8082.0`) or an exponent (`8.082e3`), `true` where an integer goes (read as 1, if accepted). Refusing a form with a 4xx and the error shape passes; so does reading it as exactly the value it spells (A-LENIENT-COERCION), which for an update means the record, answered and read back, holds that value typed as the document types it. A 5xx, another workspace's or record's answer, or a value stored in another type or spelling fails. Operations that create or consume resources are not sent these forms (each accepted form would create a VM or spend a fixture); reads are compared with the well-formed request's answer, ignoring fields that change between two well-formed reads, and differences in state alone (every id the request named agrees: a change between the reads or a cache keyed by the URL). Percent-encoded twice is another value (decoded once, it is the text `%31…`), never served as this one. A null for any update field is refused, or leaves the field as it was.",
    targets: STATEFUL,
    whyNotPrism:
      'Prism answers from examples: it cannot show that a form was read as the value it spells rather than as another.',
    needs: [
      'resources the reads name (resources.restoreIds, resources.natRules with mutations: true for the update forms)',
    ],
    threats: [
      {
        mechanism: 'integer-wraparound',
        how: 'workspace_id is converted with a 32-bit cast (`Number(v) >>> 0`, a C `int`), so 2^32 + 1042 is read as 1042 and served as that workspace.',
      },
      {
        mechanism: 'unmapped-database-error',
        how: 'A path id with a NUL in it reaches PostgreSQL, which refuses text containing 0x00; the driver error surfaces as 500.',
      },
      {
        mechanism: 'validated-copy-not-used',
        how: 'The framework validates a converted copy of the body (NestJS ValidationPipe without `transform`, class-transformer implicit conversion) but the handler stores the raw body, so "8443" passes as an integer and is stored as text.',
      },
      {
        mechanism: 'loose-comparison',
        how: 'A boolean field is read by truthiness (`Boolean(body.enabled)`, Python `bool()`), so the text "false" is stored as true.',
      },
      {
        mechanism: 'unicode-digits',
        how: "The workspace check reads the value with Python's `int()` (every Unicode digit) while the handler keeps only its ASCII digits, so a value with one Arabic-Indic digit is checked as one workspace and served as another.",
      },
      {
        mechanism: 'parameter-pollution',
        how: 'A parameter given twice arrives as a list; the handler joins or indexes it and reads another value than either copy.',
      },
      {
        mechanism: 'proxy-rewrite',
        how: 'A gateway decodes the query string before forwarding it and the service decodes it again, so a value encoded twice (the text `%31%30%34%32`, which is no number) arrives as `1042` and is served.',
      },
      {
        mechanism: 'unhandled-exception',
        how: 'workspace_id is checked with `str.isdigit()`, which counts superscript digits, and then read with `int()`, which refuses them: the ValueError reaches the generic handler, which answers 500.',
      },
      {
        mechanism: 'type-coercion',
        how: "A port is checked with `isinstance(v, int)`, and Python's bool is an int: `true` passes, is stored, and is answered as `true`.",
      },
      {
        mechanism: 'wrong-serialisation',
        how: 'A port is checked with `float.is_integer()` on what the JSON parser gave, which keeps `8082.0` a float: it is stored as the float and written back as `8082.0`, which a typed client refuses.',
      },
      {
        mechanism: 'framework-default',
        how: "The router decodes %2F before matching, so a path id with an encoded slash matches no route and the framework's default 404 page (HTML) answers instead of a JSON error.",
      },
      {
        mechanism: 'default-string-conversion',
        how: 'A text field is declared with a lax type (pydantic v1\'s `str`) that converts whatever arrives with the language\'s own `str()`, so `true` is stored as "True", a spelling nobody sent.',
      },
    ],
  },
  {
    id: 'REC-1',
    level: 'MUST',
    title:
      'A record names the resource and workspace the request named, with timestamps in order and not in the future',
    quotes: [
      'A successful response returns the resource itself, not an envelope.',
      '`datetime` is an ISO 8601 timestamp in UTC. `string` identifiers are opaque.',
      '| restore_id | string | yes | |',
      '| port_forward_rule_id | string | yes |',
      '| workspace_id | string | yes | |',
    ],
    latitude:
      "Opaque ids are compared exactly: the restore read and the NAT rule answered (an empty partial update, the document's only read of a rule) must carry the path's ids, and a workspace_id, where present, the request's. Timestamps (fields ending in `_at`) must not be later than the answer's Date header by more than 5 minutes (10 of this machine's clock without one, A-TIMESTAMP-PLAUSIBILITY); started_at must not be after completed_at, nor created_at after updated_at. The fields' meanings beyond their names are not shown, so nothing else is assumed of them. A NAT rule update whose body names other ids (`port_forward_rule_id`, `vpc_id`, `nat_gateway_id`), another `workspace_id` or an `organization_id` (none of them in the body table) may be refused with a 4xx or have them ignored; its answer, if 2xx, and the rule read back through its own path must still name the path's ids, the request's workspace and the organization the rule showed before, and a 404 there fails (the update moved the rule).",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['resources.restoreIds, or resources.natRules with mutations: true'],
    threats: [
      {
        mechanism: 'internal-id-exposed',
        how: "The ORM serialises the row's primary key (`id`) where the public id belongs, so the record is found by its public id and answered under another.",
      },
      {
        mechanism: 'mass-assignment',
        how: 'The update copies the whole body onto the row (`Object.assign(rule, body)`, `$row->update($json)`), so a body naming another `port_forward_rule_id` or `workspace_id` renames the rule or moves it to another workspace.',
      },
      {
        mechanism: 'wrong-field-name',
        how: 'A hand-written view maps a column to the wrong field (`started_at` from `completed_at`, `vpc_id` from the gateway), so the record contradicts itself.',
      },
      {
        mechanism: 'local-timezone',
        how: "Timestamps are the server's local wall-clock time written with `Z`; east of UTC a record updated just now is stamped hours in the future.",
      },
      {
        mechanism: 'cache-key-missing-dimension',
        how: 'Answers are cached by path without the workspace, so a record read in one workspace is answered, with its workspace_id, in another.',
      },
    ],
  },
];
