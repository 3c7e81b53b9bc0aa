/**
 * The vocabulary of threat mechanisms: the causes by which a real service breaks a sentence of
 * the API document. A rule's threat list (`RuleEntry.threats`) names its threats by these words,
 * and so does every sandbox fault (`faultCatalogue[].mechanism` in @cloud-api/sandbox), which is
 * what lets the mutation report tell, per rule, which listed threats a fault has shown the suite
 * catches and which no fault models yet (the to-do list of the method).
 *
 * One word per cause, not per symptom: `stale-cache` is a cache that outlives the fact it holds,
 * whether the fact is a token, a decision or a resource. A new word is added only when no
 * existing one says why the bug happens.
 */
export const threatMechanisms = {
  'act-before-check':
    'A write runs before the check that guards it (`DELETE … RETURNING workspace_id`, then the comparison; a state set to deleting, then the owner checked): a request the check refuses has already changed state.',
  'alternate-credential-source':
    'Credentials are also read from somewhere else than the documented header (a query or body `access_token`, a cookie), so a request without the header is authenticated.',
  'anonymous-fallback':
    'A caller the lookup does not find becomes an anonymous or guest principal with some rights, instead of being refused.',
  'cache-eviction':
    'State that must last (an idempotency answer, a record) lives in a bounded or short-lived cache and is gone when it is needed.',
  'cache-key-missing-dimension':
    'A cache (of answers, records or authorization decisions) is keyed without one dimension the answer depends on (workspace, route, token), so one caller is served what was computed for another.',
  'charset-truncation':
    'A column or codec with a narrower character set (MySQL utf8mb3, Latin-1) cuts or mangles text at the first character it cannot hold, so the value stored is not the value sent.',
  'check-then-act-race':
    'A condition is checked, then the handler awaits, then acts on it: two requests in flight both pass the check and both act (an idempotency key looked up before the create is stored).',
  'check-on-writes-only':
    'A guard is attached to the write routes (POST, PATCH, DELETE) only, so reads skip it.',
  'clock-skew':
    'A time comparison (expiry, freshness) runs against a clock that is off, or with a generous leeway, so a moment that has passed is taken as still to come.',
  'column-truncation':
    'A column narrower than the value (a VARCHAR(32)) keeps only its first characters, and with strict checks off the write succeeds, so the value stored is not the value sent.',
  'client-set-internal-header':
    'A header the gateway sets for the services behind it (the workspace, the caller) is also accepted from clients, because the gateway does not strip it: the client states what the gateway was supposed to decide.',
  'content-negotiation':
    'The framework picks the response format from the Accept header and answers XML, HTML or text to a request that did not ask for JSON.',
  'default-string-conversion':
    'A value is written the way a database driver or the language converts it to a string by default (a space for `T` in a timestamp), not in the documented format.',
  envelope:
    'A response interceptor or house style wraps every answer in an object (`{"data": ...}`) instead of returning the resource itself.',
  'fail-open':
    'When a check cannot run (no header, a dependency down, a timeout), the request is let through instead of refused.',
  'falsy-default':
    'A default is applied with `value || default`, so a sent false, 0 or empty string is replaced by the default.',
  'format-only-check': 'A value is judged by its shape (a prefix, a length) and never looked up.',
  'framework-default':
    "The framework's own default (a status, an error page, a content type) goes out because the handler never set the documented one.",
  'gateway-retry':
    'A gateway or client library retries a request after a per-try timeout while the first attempt still goes through: the retry finds the work done, and its answer (404, 409) is the one the caller gets.',
  'global-key-space':
    "A key that belongs to one workspace (an idempotency key) is stored and looked up without the workspace, so another workspace finds, and is replayed, the first one's answer.",
  'hoisted-call':
    'A call the document wants per request is moved to set-up (client construction, before a loop) and its result reused.',
  'idempotent-delete':
    'A delete or release is made idempotent by design and answers success for a resource that does not exist or is already gone.',
  'implied-scope':
    'Scopes are read as a hierarchy or by prefix (`*.write` implies `*.read`, `vm` matches `vm.read`), granting scopes the token was never given.',
  'internal-id-exposed':
    "An internal key (a row's primary key, a foreign key) is serialised where the document's public id belongs, so the record names something other than what was asked for.",
  'integer-wraparound':
    'A value is converted to a fixed-width integer that wraps (a 32-bit cast, `Number(v) >>> 0`, a C `int`), so a number 2^32 away is read as the same one.',
  'lenient-parse':
    'A parser reads what it can and ignores the rest (parseInt keeps leading digits, the token is whatever follows a space), so an invalid value is read as a valid one.',
  'local-timezone':
    "A time is written in the server's local time zone (a container's TZ, a naive datetime) instead of UTC.",
  'loose-comparison':
    'Values are compared by truthiness, substring, prefix, coercing equality or without regard to case (a case-insensitive collation) instead of exact equality (`"false"` is truthy, `"1042,1043".includes("104")`).',
  'lost-update':
    'A record is read, the handler awaits, and the whole record it read is written back with its change on top: an update that landed in between is lost.',
  'existence-leak':
    'A refusal tells whether an id exists elsewhere (a 403 "belongs to another workspace" where an unknown id gets 404), so the answer differs by what the caller may not see.',
  'lost-write':
    'A change is accepted but never stored (written to a copy, a transaction never committed), and the answer shows the record unchanged.',
  'mass-assignment':
    "The request body is copied onto the stored record as it is (`Object.assign`, an ORM's `update(**body)`), so fields the caller must not set are written.",
  'middleware-order':
    'A middleware (authentication, validation, the JSON error handler) is registered in the wrong place, so some routes or errors never pass through it.',
  'missing-authorization-check': 'A route or code path was registered without its authorization guard.',
  'missing-field': 'A required field is left out of a record (a hand-written view or DTO that lacks it).',
  'missing-lookup': 'State that should decide the answer is stored but never looked up on arrival.',
  'missing-validation': 'A documented constraint on input is not checked at all.',
  'missing-workspace-filter':
    'A resource is fetched by its id alone, without the workspace of the request in the query.',
  'nil-collection':
    'An empty collection held as nil, None or undefined is written as `null` instead of `[]`.',
  'narrow-id-scope':
    'Identifiers are numbered within a narrower scope than the one they must be unique in (a sequence per workspace, per table or per kind of job), so records of two scopes get the same id.',
  'non-atomic-id':
    'An id is computed from a counter or maximum that is read, then written back later: overlapping creates get the same id.',
  'non-transactional-write':
    'A change of several parts is written piece by piece without a transaction, so a failure midway leaves part of it applied.',
  'null-dereference':
    'Code reads a property of something that can be missing (a record not found, a table entry the data lacks), throws a TypeError, answered 500.',
  'number-coercion':
    'A value is converted with a permissive number conversion (`Number()`), which also reads signs, leading zeros, spaces, decimals, exponents and hex.',
  'over-strict-check':
    'A check demands more than the document does (an extra scope, a narrower format), so correct requests are refused.',
  'pagination-envelope':
    'Pagination added to a list wraps it in an object (`{"items": [...], "next": ...}`).',
  'parameter-pollution':
    'A parameter given twice is read differently by two layers (the policy check takes the first value, the handler the last), so an allowed value carries a forbidden one past the check.',
  'path-normalisation-mismatch':
    'The guard and the router read the path differently (letter case, dot segments, a trailing slash), so the guard decides for a path the router then serves as another endpoint.',
  'per-instance-state':
    'State that must be shared (idempotency answers, a revocation list, caches) is kept in one process, so a request balanced to another instance does not see it.',
  'placeholder-record':
    "A lookup that finds nothing returns an empty or default record (an ORM's `first_or_new`, a zero-value struct), answered as a success.",
  'precision-loss':
    'A large integer is read into a double (JSON.parse, Number) and rounded, so it no longer names what it named.',
  'prefix-stripped-lookup':
    'A value is looked up by the part after its prefix, so the same secret with another prefix is found.',
  'proxy-rewrite':
    'A gateway, ingress or load balancer between the caller and the service rewrites the path, drops or adds headers, or answers some requests itself.',
  'radix-prefix':
    'A number is read by a parser that honours radix prefixes (a leading 0 for octal, 0x for hexadecimal), so another number written with a leading zero is read as this one.',
  'read-after-write-lag':
    'A write goes to the primary while a later read goes to a replica or cache that has not seen it yet.',
  'replace-not-merge':
    'A partial update replaces the whole record, blanking or resetting fields that were not sent.',
  'request-coalescing':
    'Concurrent identical calls are merged into one (a shared promise, a dataloader), so a caller does not get an answer of its own.',
  'reversed-merge-order':
    'Two objects are merged in the wrong order (`{...sent, ...defaults}`), so the values that should lose win.',
  'shared-client-defaults':
    'A default (header, body field, base URL) set on a shared HTTP client instance for one kind of call is sent with every request.',
  'shared-environment-store':
    'Two environments share one store (of tokens, of configuration), so what belongs to one is found by the other.',
  'silent-business-rule':
    'A business rule rewrites a value the caller sent (turning an option off that makes no sense with another) instead of refusing the request, so the record differs from what was asked.',
  'sign-dropped':
    'A sign is dropped by Math.abs or an unsigned cast, so a negative value is read as its positive.',
  'soft-delete-not-filtered':
    'Deleted or consumed records are kept with a flag or state that lookups do not filter, so they are still found.',
  'stale-cache': 'A cache keeps a fact (a token, a decision, a list) after it has changed.',
  'swallowed-error':
    'An exception is caught and replaced by a default (`{}`, an empty list), so the bad input goes through as if it were good.',
  'synchronous-completion':
    'An operation the document makes asynchronous is performed inline and answered with its finished result instead of an acceptance record.',
  'tenant-check-at-organization-level':
    'Ownership is checked at the organization level instead of the workspace, so any workspace of the organization passes.',
  'time-based-id':
    'An identifier is made from the time of the request (to the second or millisecond), so two requests handled in the same instant get the same one.',
  'token-passthrough':
    "The service calls a downstream service with the caller's token, so the caller needs the downstream's scopes too.",
  'type-coercion':
    'A framework, validator, ORM or database converts a value between types (string and number, boolean and 0/1, an array and its item) where the document wants one type.',
  'type-confusion':
    'Code written for one JSON type (an object) runs on another (a string, a number, null) and throws, answered 500.',
  'unawaited-promise':
    'An asynchronous call is not awaited (or its rejection not handled), so what follows runs before, or regardless of, its result.',
  'unhandled-exception':
    'An exception a library throws on bad input (a JSON SyntaxError, BigInt("abc"), an ORM not-found) reaches the generic handler, which answers 500.',
  'unicode-digits':
    'A parser accepts every Unicode decimal digit (Python int(), a Unicode-aware `\\d`), so full-width or other-script digits are read as a number.',
  'unmapped-database-error':
    'An unvalidated value reaches the database and its type or constraint error surfaces as a 500.',
  'unmapped-internal-state':
    'An internal state (of a queue, a state machine, a database enum) is passed on without being mapped to the documented values.',
  'unsafe-spread':
    'Input is copied with `{...value}` before it is validated, so arrays, numbers, true and null become objects that pass.',
  'upsert-instead-of-insert':
    'A create is written as an upsert, so creating what exists replaces it instead of conflicting.',
  'validation-skipped-on-route':
    'A check applied route by route (a schema, a header requirement, a preflight call) is missing on one route, often one added later or thought harmless.',
  'validated-copy-not-used':
    'The framework validates a converted copy of the input (a DTO built with implicit conversion) but the handler uses the raw input, so a value that passed as an integer is stored as text.',
  'wrong-constant':
    'A hard-coded or configured value (a status word, a scope name, a prefix, a version) is the wrong one.',
  'wrong-default': 'A value the document gives a default for, or none, is defaulted to something else.',
  'wrong-delimiter':
    'A list kept as one string is split on another delimiter than the one it was joined with (spaces and commas), so its items are not found.',
  'wrong-field-name':
    'A field is written under another name than the documented one (`message` for `detail`).',
  'wrong-header': 'A response header (Content-Type) does not say what the body is.',
  'wrong-mount-path':
    'A router is mounted under the wrong prefix (the version twice, or not at all), so the documented paths answer 404.',
  'wrong-serialisation':
    'A value is serialised in another JSON type or form (a boolean as a string, a Set as `{}`, an enum by its key, a list of issues for a string).',
  'wrong-status': 'A handler sets another status than the documented one (201 or 200 for 202, 200 for 204).',
  'wrong-variable':
    'A value is filled from another variable in scope (another record, the last item of a loop), so it names the wrong thing.',
  'zero-value-omitted':
    "A serializer drops fields holding false, 0 or an empty string (Go's `omitempty`, a skip-if-default setting), so required fields disappear.",
} as const satisfies Record<string, string>;

/** A cause by which a real service breaks a rule's sentence; see `threatMechanisms`. */
export type ThreatMechanism = keyof typeof threatMechanisms;

export function isThreatMechanism(value: string): value is ThreatMechanism {
  return Object.hasOwn(threatMechanisms, value);
}
