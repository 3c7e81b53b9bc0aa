/**
 * A deliberate defect (for mutation testing), modelled on how such a bug arises in a real server:
 * `mechanism` names the cause, `rule` the rule of the API document it is expected to break.
 */
export interface FaultEntry {
  readonly id: string;
  /** The rule ID (see the conformance rule catalogue) the fault is expected to break. */
  readonly rule: string;
  /**
   * The bug's cause, in kebab-case (lenient-parse, missing-workspace-filter, wrong-default, ...).
   * Faults sharing a mechanism are one kind of bug; a rule caught only by one kind is a blind spot
   * waiting for the next kind, which is why the mutation runner counts mechanisms per rule.
   */
  readonly mechanism: string;
  readonly description: string;
}

/**
 * Every named fault. Each is a small switch in the code path where such a bug would live (the
 * workspace_id parser, a store lookup, the body reader...); a conformance suite with teeth fails
 * at least one rule, and is expected to fail `rule`, against a sandbox started with the fault.
 * The first 47 were written rule by rule; the ones after "realistic mechanisms" were written
 * from the cause of the bug, and may break several rules or one that came later.
 */
export const faultCatalogue = [
  // workspace_id
  {
    id: 'accept-missing-workspace-id',
    mechanism: 'wrong-default',
    rule: 'WS-1',
    description:
      'A request without workspace_id is served in the primary workspace instead of being rejected.',
  },
  {
    id: 'accept-zero-workspace-id',
    mechanism: 'missing-validation',
    rule: 'WS-2',
    description: 'workspace_id=0 (or 00, -0) is served in the primary workspace instead of being rejected.',
  },
  {
    id: 'accept-negative-workspace-id',
    mechanism: 'missing-validation',
    rule: 'WS-2',
    description: 'A negative workspace_id is served in the primary workspace instead of being rejected.',
  },
  {
    id: 'accept-non-numeric-workspace-id',
    mechanism: 'missing-validation',
    rule: 'WS-2',
    description: 'A non-numeric workspace_id (e.g. "abc", "1.5") is served in the primary workspace.',
  },
  // authentication
  {
    id: 'accept-missing-authorization',
    mechanism: 'fail-open',
    rule: 'AUTH-1',
    description: 'A request without an Authorization header is served with full rights.',
  },
  {
    id: 'bearer-token-from-cookie',
    mechanism: 'alternate-credential-source',
    rule: 'AUTH-1',
    description:
      'Without an Authorization header, a session middleware takes the token from an access_token cookie, so a request that lacks the header is authenticated.',
  },
  {
    id: 'accept-basic-auth',
    mechanism: 'lenient-parse',
    rule: 'AUTH-1',
    description:
      'Authorization: Basic is accepted: as the identity of a known token inside it (raw or base64, as user or password), else with full rights.',
  },
  {
    id: 'accept-raw-token',
    mechanism: 'lenient-parse',
    rule: 'AUTH-1',
    description: 'An Authorization header holding a known token without the Bearer scheme is accepted.',
  },
  {
    id: 'accept-unknown-token',
    mechanism: 'format-only-check',
    rule: 'AUTH-2',
    description: 'Any unknown token with the environment prefix is accepted with full rights.',
  },
  {
    id: 'token-lookup-case-insensitive',
    mechanism: 'loose-comparison',
    rule: 'AUTH-2',
    description:
      'Tokens are looked up in a column with a case-insensitive collation (MySQL utf8mb4_general_ci), so a valid token in another letter case is found and accepted.',
  },
  {
    id: 'token-lookup-truncated',
    mechanism: 'loose-comparison',
    rule: 'AUTH-2',
    description:
      'Tokens are stored in a column 32 characters wide, which truncates both the stored token and the one looked up: a valid token with its last characters changed, or one more, is found and accepted.',
  },
  {
    id: 'accept-revoked-token',
    mechanism: 'stale-cache',
    rule: 'AUTH-3',
    description: 'The revoked token is still accepted, with full rights.',
  },
  {
    id: 'accept-other-environment-token',
    mechanism: 'missing-validation',
    rule: 'ENV-1',
    description:
      'The environment prefix is not checked: the other environment token, and a known token with the other prefix, are accepted.',
  },
  // scopes
  {
    id: 'ignore-scope-check-resource-eligibility',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'The billing preflight does not check billing.read.',
  },
  {
    id: 'scope-skipped-on-trailing-slash',
    rule: 'SCOPE-1',
    mechanism: 'validation-skipped-on-route',
    description:
      'The scope middleware is bound to the exact paths while the router (strict routing off) also serves them with a trailing slash: DELETE …/reserved-ips/{id}/ releases the IP for a token without network.write.',
  },
  {
    id: 'ignore-scope-list-buckets',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'List buckets does not check object-storage.read.',
  },
  {
    id: 'ignore-scope-create-cloud-vm',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'Create cloud VM does not check vm.write.',
  },
  {
    id: 'ignore-scope-enable-gpu-vm-backups',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'Enable GPU VM backups does not check vm.write.',
  },
  {
    id: 'ignore-scope-delete-gpu-vm',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'Delete GPU VM does not check vm.write.',
  },
  {
    id: 'ignore-scope-get-cloud-vm-snapshot-restore',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'Get cloud VM snapshot restore does not check vm.read.',
  },
  {
    id: 'ignore-scope-update-nat-port-forwarding-rule',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'Update NAT port-forwarding rule does not check network.write.',
  },
  {
    id: 'ignore-scope-release-reserved-ip',
    mechanism: 'missing-authorization-check',
    rule: 'SCOPE-1',
    description: 'Release reserved IP does not check network.write.',
  },
  {
    id: 'scope-write-implies-read',
    mechanism: 'implied-scope',
    rule: 'SCOPE-1',
    description:
      "Scopes are read as a hierarchy: a product's write scope also grants its read scope, so a token with vm.write but not vm.read reads restores.",
  },
  {
    id: 'preflight-requires-vm-write',
    mechanism: 'wrong-constant',
    rule: 'BILL-5',
    description: 'The billing preflight requires vm.write instead of billing.read.',
  },
  {
    id: 'create-requires-billing-read',
    mechanism: 'over-strict-check',
    rule: 'BILL-5',
    description: 'Create cloud VM requires billing.read in addition to vm.write.',
  },
  // workspace policies
  {
    id: 'ignore-workspace-policy',
    mechanism: 'missing-authorization-check',
    rule: 'POLICY-1',
    description: 'A specific-workspaces token may access every workspace of the organization.',
  },
  {
    id: 'entire-organization-limited-to-primary',
    mechanism: 'wrong-default',
    rule: 'POLICY-2',
    description: 'An entire-organization token gets 403 on every workspace but the primary one.',
  },
  // asynchronous operations
  {
    id: 'create-answers-201',
    mechanism: 'wrong-status',
    rule: 'ASYNC-1',
    description: 'Create cloud VM answers 201 instead of 202 Accepted.',
  },
  {
    id: 'acceptance-missing-submitted-at',
    mechanism: 'missing-field',
    rule: 'ASYNC-1',
    description: 'The 202 acceptance record has no submitted_at.',
  },
  {
    id: 'acceptance-status-queued',
    mechanism: 'wrong-constant',
    rule: 'ASYNC-2',
    description: 'A freshly accepted operation reports status "queued" instead of "accepted".',
  },
  {
    id: 'acceptance-status-by-rollout',
    mechanism: 'unmapped-internal-state',
    rule: 'ASYNC-2',
    description:
      'A new job runner, rolled out to the workspaces with an odd ID first, passes on its own state: acceptances there report "pending", while the primary workspace still answers "accepted".',
  },
  {
    id: 'acceptance-submitted-at-not-utc',
    mechanism: 'local-timezone',
    rule: 'ASYNC-2',
    description: 'submitted_at is written with a +02:00 offset instead of UTC.',
  },
  {
    id: 'delete-acceptance-other-vm-id',
    mechanism: 'wrong-variable',
    rule: 'ASYNC-3',
    description: "The delete's acceptance record names another vm_id than the VM in the path.",
  },
  // idempotency
  {
    id: 'idempotency-key-optional',
    mechanism: 'missing-validation',
    rule: 'IDEM-1',
    description: 'Create and delete are accepted without X-Idempotency-Key.',
  },
  {
    id: 'ignore-idempotency-key',
    mechanism: 'missing-lookup',
    rule: 'IDEM-2',
    description:
      'A replay with the same X-Idempotency-Key accepts a new operation (new record, second resource).',
  },
  {
    id: 'idempotency-answers-expire',
    mechanism: 'cache-eviction',
    rule: 'IDEM-2',
    description:
      'Answers to keyed requests are kept for 1 s only: a retry after a client timeout finds nothing and starts a second operation.',
  },
  {
    id: 'idempotency-answers-lru',
    mechanism: 'cache-eviction',
    rule: 'IDEM-2',
    description:
      'Answers to keyed requests sit in a cache of the 2 latest keys: a retry that comes after other keyed requests finds nothing and starts a second operation.',
  },
  {
    id: 'idempotency-store-per-instance',
    mechanism: 'per-instance-state',
    rule: 'IDEM-2',
    description:
      'Two instances behind a balancer that pins each connection to one of them keep their own answers: a retry that comes on a new connection, as a retry after a network failure does, reaches the other instance every second time and starts a second operation.',
  },
  // billing
  {
    id: 'gateway-ignores-billing-decision',
    mechanism: 'missing-authorization-check',
    rule: 'BILL-6',
    description: 'The gateway accepts a billable create in a workspace whose billing decision is denied.',
  },
  {
    id: 'scope-skipped-on-method-override',
    mechanism: 'validation-skipped-on-route',
    rule: 'SCOPE-1',
    description:
      'The framework honours X-HTTP-Method-Override, while the scope guard is keyed by the method on the wire and has no entry for a POST: a release or delete sent as POST with the override runs without its scope check.',
  },
  {
    id: 'billing-skipped-for-known-key',
    mechanism: 'cache-key-missing-dimension',
    rule: 'BILL-6',
    description:
      'The gateway skips its billing decision for a create whose X-Idempotency-Key it has already forwarded (the key alone, no workspace), taking it for a retry, while the product keeps keys per workspace: the key of an accepted create, sent with a create into a denied workspace, is accepted there.',
  },
  {
    id: 'idempotency-replay-before-auth',
    mechanism: 'middleware-order',
    rule: 'AUTH-1',
    description:
      'The idempotency middleware is mounted before authentication: a stored answer is replayed to whoever repeats its X-Idempotency-Key, without a token, with an unknown or revoked one, or lacking the scope.',
  },
  {
    id: 'billing-fail-open-when-busy',
    mechanism: 'fail-open',
    rule: 'BILL-6',
    description:
      "The gateway's billing client has one connection: a decision asked for while another is pending times out, and the gateway forwards the create instead of refusing it, so creates sent together into a denied workspace are accepted.",
  },
  {
    id: 'gateway-trusts-body-decision',
    mechanism: 'mass-assignment',
    rule: 'BILL-6',
    description:
      'The gateway skips its own billing decision when the create body carries "allowed": true (the preflight answer a client passed along), so a denied workspace creates by saying it may.',
  },
  {
    id: 'gateway-trusts-claimed-billing-state',
    mechanism: 'mass-assignment',
    rule: 'BILL-6',
    description:
      'The create model keeps a `billing_decision` the web console fills in, and the gateway skips its own billing call when the body carries one that allows: a denied workspace creates by sending `"billing_decision": {"allowed": true}`.',
  },
  {
    id: 'preflight-allowed-as-string',
    mechanism: 'wrong-serialisation',
    rule: 'BILL-7',
    description: 'The preflight decision carries allowed as the string "true"/"false" instead of a boolean.',
  },
  // errors
  {
    id: 'error-without-detail',
    mechanism: 'wrong-field-name',
    rule: 'ERR-1',
    description: 'Error bodies carry `message` instead of `detail`.',
  },
  {
    id: 'router-errors-html',
    rule: 'ERR-1',
    mechanism: 'framework-default',
    description:
      'The application\'s errors are JSON, but a request no route takes (a path no endpoint has, a method the path does not take) falls through to Express\'s final handler: an HTML 404 "Cannot GET …".',
  },
  {
    id: 'error-detail-number',
    mechanism: 'wrong-serialisation',
    rule: 'ERR-1',
    description: 'Error bodies carry the status code as a number in `detail`.',
  },
  {
    id: 'error-body-not-json',
    mechanism: 'framework-default',
    rule: 'ERR-1',
    description: 'Error bodies are plain text (text/plain) instead of a JSON object.',
  },
  {
    id: 'unknown-restore-answers-200',
    mechanism: 'placeholder-record',
    rule: 'ERR-2',
    description: 'Getting an unknown restore answers 200 with a placeholder record instead of 404.',
  },
  {
    id: 'unknown-reserved-ip-answers-204',
    mechanism: 'idempotent-delete',
    rule: 'ERR-2',
    description: 'Releasing an unknown reserved IP answers 204 instead of 404.',
  },
  {
    id: 'malformed-json-answers-500',
    mechanism: 'unhandled-exception',
    rule: 'ERR-3',
    description: 'A malformed JSON request body answers 500 instead of a 4xx.',
  },
  // responses
  {
    id: 'restore-in-envelope',
    mechanism: 'envelope',
    rule: 'RESP-1',
    description: 'The restore record is wrapped in an envelope `{ "data": ... }` instead of returned itself.',
  },
  {
    id: 'backup-policy-enabled-by-worker',
    mechanism: 'unawaited-promise',
    rule: 'BACKUP-1',
    description:
      'The policy row is inserted with enabled false and a background job switches it on; enable answers with the inserted row, so the policy it returns is disabled.',
  },
  {
    id: 'backup-policy-missing-storage-backend',
    mechanism: 'missing-field',
    rule: 'RESP-1',
    description: 'The backup policy record lacks the required storage_backend field.',
  },
  {
    id: 'success-negotiated-xml',
    mechanism: 'content-negotiation',
    rule: 'RESP-1',
    description:
      'An XML message converter sits beside the JSON one (a library on the classpath), so a request whose Accept header names XML first gets its record as XML.',
  },
  {
    id: 'acceptance-status-given-twice',
    mechanism: 'wrong-serialisation',
    rule: 'RESP-1',
    description:
      'Acceptance records are written as a hand-built prefix `{"status":"queued",` before the serialised record, so `status` appears twice: JavaScript reads "accepted", other parsers "queued".',
  },
  {
    id: 'text-sent-as-latin1',
    mechanism: 'charset-truncation',
    rule: 'RESP-1',
    description:
      'Answers are encoded as Latin-1 (a connection charset left at its default), so text beyond ASCII reaches the client as bytes that are not UTF-8.',
  },
  {
    id: 'content-type-twice',
    mechanism: 'proxy-rewrite',
    rule: 'RESP-1',
    description:
      "A gateway adds `Content-Type: text/html` after the service's `application/json`: every answer carries two.",
  },
  {
    id: 'success-content-type-text',
    mechanism: 'wrong-header',
    rule: 'RESP-1',
    description: 'Successful JSON answers are labelled Content-Type: text/plain.',
  },
  {
    id: 'release-answers-200-with-body',
    mechanism: 'wrong-status',
    rule: 'RESP-2',
    description: 'Releasing a reserved IP answers 200 with a JSON body instead of 204 with none.',
  },
  // NAT rule partial update
  {
    id: 'patch-resets-unsent-fields',
    mechanism: 'replace-not-merge',
    rule: 'PATCH-1',
    description:
      'PATCH replaces the rule: fields not sent are blanked (empty strings, port 0, protocol tcp, enabled true).',
  },
  {
    id: 'nat-update-strict-yet-replaces',
    mechanism: 'replace-not-merge',
    rule: 'PATCH-1',
    description:
      'A strict validator refuses an update that names no field ({} answers 400), and the handler then writes the body over a blank rule: every field not sent is blanked. Only a read that sends a field unchanged shows the rule.',
  },
  {
    id: 'patch-ignores-sent-fields',
    mechanism: 'lost-write',
    rule: 'PATCH-1',
    description: 'PATCH answers 200 with the rule unchanged, ignoring the fields sent.',
  },
  // backup defaults
  {
    id: 'backup-default-retention-14',
    mechanism: 'wrong-default',
    rule: 'BACKUP-1',
    description: 'Enable backups without retention_days applies 14 days instead of 7.',
  },
  {
    id: 'backup-default-window-60',
    mechanism: 'wrong-default',
    rule: 'BACKUP-1',
    description: 'Enable backups without a schedule window applies window_minutes 60 instead of 30.',
  },
  // enums
  {
    id: 'nat-rule-status-extra-value',
    mechanism: 'unmapped-internal-state',
    rule: 'ENUM-1',
    description: 'NAT rule records report status "active", a value outside the documented enum.',
  },
  {
    id: 'restore-status-extra-value',
    mechanism: 'unmapped-internal-state',
    rule: 'ENUM-1',
    description: 'Restore records report status "completed", a value outside the documented enum.',
  },
  // ---- realistic mechanisms (issue 14): written from the bug's cause, not from a rule ----
  // workspace_id parsing
  {
    id: 'workspace-id-parse-int',
    rule: 'WS-4',
    mechanism: 'lenient-parse',
    description:
      'workspace_id is read with parseInt: its leading digits count, so "1042abc", "1042.9" and "1042,7" are served as workspace 1042.',
  },
  {
    id: 'workspace-id-radix-prefix',
    rule: 'POLICY-1',
    mechanism: 'radix-prefix',
    description:
      'workspace_id is read with Java\'s `Long.decode` (as Ruby\'s `Integer()` and Go\'s base-0 `ParseInt` do): a leading zero makes it octal, so "02022" (decimal 2022, another workspace) is served as workspace 1042 to a token that selected only 1042, and "0x412" too.',
  },
  {
    id: 'workspace-id-line-anchored-pattern',
    rule: 'WS-4',
    mechanism: 'lenient-parse',
    description:
      'workspace_id is validated with `/^[1-9][0-9]*$/` where `^` and `$` anchor at line ends (Ruby, or the m flag), then read by its leading digits: "1042\\nabc" passes as workspace 1042.',
  },
  {
    id: 'workspace-id-number-coercion',
    rule: 'WS-5',
    mechanism: 'number-coercion',
    description:
      'workspace_id is read with Number(): " 1042", "+1042", "01042", "1042.0", "1.042e3" and "0x412" are served as workspace 1042.',
  },
  {
    id: 'workspace-id-sign-dropped',
    rule: 'WS-4',
    mechanism: 'sign-dropped',
    description:
      'workspace_id goes through Math.abs(Number(value)): "-1042" is served as workspace 1042 (and the spellings Number() reads, such as "+1042").',
  },
  {
    id: 'workspace-id-or-default',
    rule: 'WS-1',
    mechanism: 'falsy-default',
    description:
      'workspace_id is Number(value) || the default workspace: a missing, empty, zero or non-numeric value is served in the primary workspace.',
  },
  {
    id: 'workspace-id-unicode-digits',
    mechanism: 'unicode-digits',
    rule: 'WS-5',
    description:
      'workspace_id is read by a Unicode-aware digit parser (as Python int() does), so full-width or Arabic-Indic digits are served as the workspace they spell.',
  },
  {
    id: 'workspace-id-bigint-throws',
    rule: 'WS-2',
    mechanism: 'unhandled-exception',
    description:
      'workspace_id is read with BigInt(), which throws on "1.5", "abc" or "1042abc"; the generic error handler answers 500.',
  },
  // resource lookups: the workspace filter
  {
    id: 'restore-lookup-ignores-workspace',
    rule: 'ISO-1',
    mechanism: 'missing-workspace-filter',
    description:
      'Get restore finds the restore by id alone: a restore of one workspace is returned through another workspace of the organization.',
  },
  {
    id: 'nat-rule-update-ignores-workspace',
    rule: 'ISO-1',
    mechanism: 'missing-workspace-filter',
    description:
      'Update NAT rule finds the rule by its path ids alone: a rule of one workspace is changed through another workspace.',
  },
  {
    id: 'gpu-vm-lookup-ignores-workspace',
    rule: 'ISO-1',
    mechanism: 'missing-workspace-filter',
    description:
      'The GPU VM lookup that delete and enable-backups share finds the VM by id alone: a VM of one workspace is deleted, or gets backups, through another.',
  },
  {
    id: 'reserved-ip-release-ignores-workspace',
    rule: 'ISO-1',
    mechanism: 'missing-workspace-filter',
    description:
      'Release reserved IP finds the IP by id alone: an IP of one workspace is released through another.',
  },
  {
    id: 'nat-rule-checked-against-organization',
    rule: 'ISO-1',
    mechanism: 'tenant-check-at-organization-level',
    description:
      "Update NAT rule checks the rule's organization instead of its workspace: any workspace of the organization may change it.",
  },
  // request bodies
  {
    id: 'nat-rule-protocol-not-validated',
    rule: 'NEG-1',
    mechanism: 'missing-validation',
    description:
      'The PATCH body is validated against a partial schema that lost the protocol enum: "icmp" is accepted and stored.',
  },
  {
    id: 'body-spread-into-object',
    rule: 'NEG-1',
    mechanism: 'unsafe-spread',
    description:
      'Every JSON body is copied with {...body} before validation: an array becomes an object of its indexes, a number, true or null an empty object, and is accepted.',
  },
  {
    id: 'preflight-skips-validation',
    rule: 'NEG-1',
    mechanism: 'validation-skipped-on-route',
    description:
      'The billing preflight route, which "only reads", was registered without its body schema: sku_code 7, an object, an array or a string body are answered 200.',
  },
  {
    id: 'non-object-body-crashes',
    rule: 'ERR-3',
    mechanism: 'type-confusion',
    description:
      'The body check uses the `in` operator on whatever JSON arrived: a string or number body throws a TypeError, answered 500.',
  },
  {
    id: 'handler-panic-drops-connection',
    rule: 'ERR-3',
    mechanism: 'unhandled-exception',
    description:
      "The handler asserts the body is a JSON object (`body.(map[string]any)`) and panics on any other JSON; Go's net/http recovers the panic by closing the connection, so the client gets no answer at all.",
  },
  {
    id: 'malformed-json-read-as-empty',
    rule: 'NEG-1',
    mechanism: 'swallowed-error',
    description:
      'A body JSON.parse cannot read is caught and replaced by {}: malformed JSON is accepted as an empty body.',
  },
  // lists
  {
    id: 'bucket-list-paginated',
    rule: 'RESP-3',
    mechanism: 'pagination-envelope',
    description: 'The bucket list is wrapped for pagination: {"items": [...], "next": null}.',
  },
  {
    id: 'bucket-list-serialised-from-set',
    rule: 'RESP-3',
    mechanism: 'wrong-serialisation',
    description: 'The buckets are kept in a Set and serialised as such: the list answers {}.',
  },
  {
    id: 'backup-hourly-hour-null',
    rule: 'BACKUP-2',
    mechanism: 'wrong-default',
    description:
      'An hourly schedule sent without an hour keeps hour null ("unused for hourly") instead of its documented default 20.',
  },
  {
    id: 'backup-weekly-day-filled-sunday',
    rule: 'BACKUP-2',
    mechanism: 'wrong-default',
    description:
      'A weekly schedule sent without day_of_week gets Sunday (0) filled in; its documented default is none.',
  },
  {
    id: 'backup-retention-capped-at-30',
    rule: 'BACKUP-2',
    mechanism: 'wrong-constant',
    description:
      "The plan's retention limit is applied silently: a retention_days past 30 is answered 200 and stored as 30, instead of kept or refused.",
  },
  {
    id: 'backup-day-counts-written-as-floats',
    rule: 'RESP-1',
    mechanism: 'wrong-serialisation',
    description:
      'A backup policy\'s day counts are computed by true division (hours / 24) and written with their fraction: "retention_days":7.0, which a typed client (Go\'s int) refuses.',
  },
  {
    id: 'nat-rule-port-clamped-to-16-bits',
    rule: 'PATCH-1',
    mechanism: 'column-truncation',
    description:
      'Ports are kept in an unsigned 16-bit column with strict mode off: a port past 65535 is accepted (200) and stored, and answered, as 65535.',
  },
  {
    id: 'nat-rule-port-unique-includes-self',
    rule: 'PATCH-1',
    mechanism: 'over-strict-check',
    description:
      'The external port\'s uniqueness query does not leave the rule itself out: an update restating the rule\'s own port is refused with 409 "already forwarded by another rule".',
  },
  {
    id: 'empty-bucket-list-404',
    rule: 'RESP-3',
    mechanism: 'wrong-status',
    description:
      'An empty bucket list is taken for a missing resource: a workspace without buckets answers 404 "No buckets found" instead of [].',
  },
  {
    id: 'bucket-list-envelope-on-canary',
    rule: 'RESP-3',
    mechanism: 'envelope',
    description:
      'One bucket-list request in eight reaches a canary instance running the next version, which wraps the list as {"items": [...], "next_page_token": null}.',
  },
  {
    id: 'empty-bucket-list-null',
    rule: 'RESP-3',
    mechanism: 'nil-collection',
    description:
      'A workspace without buckets holds a nil list (a Go nil slice), which is written as null instead of [].',
  },
  {
    id: 'bucket-list-region-lookup-crash',
    rule: 'ENV-2',
    mechanism: 'null-dereference',
    description:
      "List buckets reads each bucket's region from a region table that lacks eu-fra-1: a TypeError, answered 500.",
  },
  {
    id: 'api-mounted-twice',
    rule: 'ENV-2',
    mechanism: 'wrong-mount-path',
    description:
      'The router, whose paths already start with /v1, is mounted under /v1 again: the API answers under /v1/v1 and /v1 is 404.',
  },
  // tokens, scopes and workspace policies
  {
    id: 'unknown-token-anonymous-fallback',
    rule: 'AUTH-2',
    mechanism: 'anonymous-fallback',
    description:
      'A token the lookup does not find falls back to an anonymous caller holding every read scope, instead of 401.',
  },
  {
    id: 'revocation-checked-on-writes-only',
    rule: 'AUTH-3',
    mechanism: 'check-on-writes-only',
    description: 'The revocation list is checked by the write guard only: a revoked token still reads (GET).',
  },
  {
    id: 'revocation-list-reload-gap',
    rule: 'AUTH-3',
    mechanism: 'non-transactional-write',
    description:
      'The revocation list is reloaded at every whole second by emptying it and filling it again: for its first 40 ms a revoked token is accepted.',
  },
  {
    id: 'revocation-cached-per-instance',
    mechanism: 'per-instance-state',
    rule: 'AUTH-3',
    description:
      "Two instances behind a balancer that pins each connection to one of them cache tokens each; the revocation invalidated the first one's cache only, so a revoked token is accepted on every connection the second instance serves.",
  },
  {
    id: 'token-lookup-strips-prefix',
    rule: 'ENV-1',
    mechanism: 'prefix-stripped-lookup',
    description:
      'Tokens are looked up by their secret after the environment prefix: a token of this environment sent with the other prefix is accepted.',
  },
  {
    id: 'policy-checked-on-writes-only',
    rule: 'POLICY-1',
    mechanism: 'check-on-writes-only',
    description:
      'The workspace policy is checked by the write guard only: a specific-workspaces token reads (GET) every workspace.',
  },
  // idempotency
  {
    id: 'idempotency-key-generated-when-missing',
    rule: 'IDEM-1',
    mechanism: 'wrong-default',
    description:
      'A missing X-Idempotency-Key is replaced by a generated one: create and delete without the header are accepted.',
  },
  {
    id: 'bearer-token-then-text',
    rule: 'AUTH-1',
    mechanism: 'lenient-parse',
    description:
      'The bearer token is the first word after the scheme and the rest of the header is ignored, so `Bearer <valid token> anything` is accepted.',
  },
  {
    id: 'lookup-before-auth',
    rule: 'AUTH-1',
    mechanism: 'middleware-order',
    description:
      'The restore is looked up by a route parameter loader before the token is checked, so a request without a token for a restore that does not exist gets 404 instead of 401.',
  },
  {
    id: 'query-name-case-insensitive',
    rule: 'WS-1',
    mechanism: 'loose-comparison',
    description:
      'Query parameter names are bound without regard to letter case (ASP.NET Core model binding), so `Workspace_ID=1042` is read as workspace_id and a request without workspace_id is served.',
  },
  {
    id: 'body-first-json-value',
    rule: 'NEG-1',
    mechanism: 'lenient-parse',
    description:
      'The request body is read by a streaming decoder that stops after the first JSON value, so a valid body followed by more text or a second object is applied.',
  },
  {
    id: 'restore-id-case-insensitive',
    rule: 'PARAM-1',
    mechanism: 'loose-comparison',
    description:
      'Restores are looked up through a case-insensitive collation, so a restore id in another letter case (another identifier) finds the restore.',
  },
  {
    id: 'restore-id-trimmed',
    rule: 'PARAM-1',
    mechanism: 'loose-comparison',
    description:
      "The restore id is trimmed before the lookup (Perl's s/^\\s+|\\s+$//g, Ruby's strip, with Unicode spaces and NUL), so an id with a tab, a newline or a no-break space around it (another identifier) finds the restore.",
  },
  {
    id: 'backup-partial-body-column-defaults',
    rule: 'BACKUP-2',
    mechanism: 'wrong-default',
    description:
      'An enable body that sends some fields is bound to the model, so the fields it leaves out take the column defaults (full backups every day, incremental off); only an empty body gets the documented defaults.',
  },
  {
    id: 'restore-not-found-cached-by-id',
    rule: 'ISO-1',
    mechanism: 'cache-key-missing-dimension',
    description:
      'A not-found answer for a restore is cached for 30 s by restore id alone: asked through another workspace (404 there), the restore then answers 404 in its own workspace too.',
  },
  // responses and records
  {
    id: 'release-forgets-status',
    rule: 'RESP-2',
    mechanism: 'framework-default',
    description: 'Release ends the response without setting a status: 200 with an empty body instead of 204.',
  },
  {
    id: 'release-204-announces-body',
    rule: 'RESP-2',
    mechanism: 'wrong-serialisation',
    description:
      "A response interceptor serialises release's empty result as `{}` and sets its Content-Length; the server drops the body of a 204 but sends the header, so a client waits for 2 bytes that never come.",
  },
  {
    id: 'restore-target-mode-enum-key',
    rule: 'ENUM-1',
    mechanism: 'wrong-serialisation',
    description:
      'Restore records serialise target_mode by the internal enum key ("NEW_VM") instead of its value ("new_vm").',
  },
  {
    id: 'backup-values-or-default',
    rule: 'BACKUP-2',
    mechanism: 'falsy-default',
    description:
      'Enable backups fills its defaults with value || default: incremental_enabled false becomes true, hour 0 becomes 20.',
  },
  {
    id: 'backup-partial-schedule-zeroed',
    mechanism: 'replace-not-merge',
    rule: 'BACKUP-2',
    description:
      'A schedule sent is decoded into a struct whole, so the fields it leaves out are zero values (hour 0, window_minutes 0, an empty time zone) instead of their documented defaults; an empty body still gets the defaults.',
  },
  {
    id: 'backup-schedule-defaults-win',
    rule: 'BACKUP-2',
    mechanism: 'reversed-merge-order',
    description:
      'The schedule is merged as {...sent, ...defaults}: the defaults overwrite the timezone, hour, minute and window sent.',
  },
  {
    id: 'backup-enable-upserts',
    rule: 'BACKUP-1',
    mechanism: 'upsert-instead-of-insert',
    description:
      'Enable backups upserts: a second enable replaces the policy (200 with a new policy_id) instead of 409 or the existing policy.',
  },
  // state
  {
    id: 'released-ip-soft-delete-not-filtered',
    rule: 'STATE-1',
    mechanism: 'soft-delete-not-filtered',
    description:
      'Released IPs are soft-deleted (kept as "released") and the lookup does not filter them: releasing one again answers 204.',
  },
  {
    id: 'nat-rule-mass-assignment',
    rule: 'NEG-2',
    mechanism: 'mass-assignment',
    description:
      'PATCH copies the whole body onto the rule: read-only fields (status, ids, timestamps, workspace_id) and unknown fields are applied.',
  },
  {
    id: 'timestamp-space-separator',
    rule: 'RESP-1',
    mechanism: 'default-string-conversion',
    description:
      'Every timestamp is written as a database or language default string conversion writes it: a space for T (2026-11-25 06:10:00.123000+00:00), which lenient date-time validators accept.',
  },
  // ---- concurrency of writes (issue 21): each needs two requests in flight at once ----
  {
    id: 'idempotency-check-then-act',
    rule: 'CONC-1',
    mechanism: 'check-then-act-race',
    description:
      'The X-Idempotency-Key is looked up, then the store round trip, then the create and the stored answer: a copy of the request arriving meanwhile finds no answer either, and both create a VM.',
  },
  {
    id: 'delete-state-check-then-act',
    rule: 'STATE-1',
    mechanism: 'check-then-act-race',
    description:
      "A GPU VM's state is read, then the store round trip, then it is set to deleting: two deletes of one VM arriving together both pass the check and both are accepted as operations of their own.",
  },
  {
    id: 'workspace-id-read-from-body',
    rule: 'ISO-1',
    mechanism: 'parameter-pollution',
    description:
      'The handler reads merged parameters ({...query, ...body}): a workspace_id member of the body wins over the query parameter the workspace policy checked.',
  },
  {
    id: 'backup-enable-on-deleting-vm',
    rule: 'STATE-1',
    mechanism: 'soft-delete-not-filtered',
    description:
      'The backup service looks the GPU VM up without its state: backups are enabled (200) on a VM whose delete was accepted.',
  },
  {
    id: 'delete-lock-held-423',
    rule: 'STATE-1',
    mechanism: 'framework-default',
    description:
      "A delete holds a lock on the GPU VM for its first second, and the lock library's own refusal goes out for a second delete meanwhile: 423 Locked instead of the documented 409.",
  },
  {
    id: 'vm-id-read-then-write',
    rule: 'CONC-2',
    mechanism: 'non-atomic-id',
    description:
      'A new VM id is the stored sequence read plus one, written back after the store round trip: overlapping creates read the same sequence and get the same vm_id.',
  },
  {
    id: 'operation-id-from-clock-seconds',
    rule: 'CONC-2',
    mechanism: 'time-based-id',
    description:
      'An operation_id is made from the time of the request to the second: two creates accepted within one second, as overlapping ones are, get the same operation_id.',
  },
  {
    id: 'bucket-list-cached-without-workspace',
    rule: 'ISO-1',
    mechanism: 'cache-key-missing-dimension',
    description:
      'The bucket list goes through a read-through cache keyed by the route alone (60 s): the first workspace whose list is read has it served to every other workspace.',
  },
  {
    id: 'bucket-list-organization-wide',
    rule: 'ISO-1',
    mechanism: 'missing-workspace-filter',
    description:
      "The bucket list query filters by the caller's organization, not by workspace_id: every workspace is answered every bucket of the organization.",
  },
  {
    id: 'gateway-billing-with-caller-token',
    rule: 'BILL-5',
    mechanism: 'token-passthrough',
    description:
      "The gateway asks billing for its decision with the caller's own token: billing refuses a token without billing.read, and the gateway answers such a create 503, as when no decision can be made.",
  },
  {
    id: 'operation-id-per-workspace-unique-column',
    rule: 'ASYNC-1',
    mechanism: 'narrow-id-scope',
    description:
      'Operation ids are numbered per workspace but stored in a column unique across workspaces: a create whose id another workspace already holds breaks the constraint and answers 500, rolled back, so every create in a second workspace fails the same way.',
  },
  {
    id: 'operation-id-per-workspace-sequence',
    rule: 'ASYNC-4',
    mechanism: 'narrow-id-scope',
    description:
      "Operation ids come from a sequence per workspace: the first operation accepted in a second workspace gets the id of the first workspace's first operation.",
  },
  {
    id: 'idempotency-answer-by-body',
    rule: 'ASYNC-4',
    mechanism: 'cache-key-missing-dimension',
    description:
      'Accepted answers are remembered by the request (method, path, workspace, body) instead of its X-Idempotency-Key: a create with a key of its own and the body of an earlier create is answered with the earlier operation and VM.',
  },
  {
    id: 'nat-rule-read-modify-write',
    rule: 'CONC-3',
    mechanism: 'lost-update',
    description:
      'A NAT rule update reads the rule, waits on the store round trip, and writes the whole record it read with the sent fields on top: an update that landed meanwhile is lost.',
  },
  // ---- stored and generated values (issue 21) ----
  {
    id: 'timestamps-local-time-as-utc',
    rule: 'ASYNC-2',
    mechanism: 'local-timezone',
    description:
      "Timestamps are the server's local wall-clock time (UTC+2) written with Z, as a naive datetime serialised as UTC does: well-formed, and two hours from the time of the answer.",
  },
  {
    id: 'nat-rule-ports-stored-as-text',
    rule: 'PATCH-1',
    mechanism: 'type-coercion',
    description:
      'The ports are kept in a text column: an update answers 200, and the record it returns, like every later read, carries "8443" (a string) where the document types an integer.',
  },
  {
    id: 'nat-rule-protocol-stored-uppercase',
    rule: 'ENUM-1',
    mechanism: 'unmapped-internal-state',
    description:
      'The protocol is kept in a database enum of upper-case labels and returned as stored: an update sending "udp" reads back "UDP", a value the document does not list.',
  },
  {
    id: 'nat-rule-text-utf8mb3',
    mechanism: 'charset-truncation',
    rule: 'PATCH-1',
    description:
      "The rule's name and note are kept in utf8mb3 columns (MySQL, strict mode off), which cut a value at its first character beyond three bytes: a name with an emoji is answered and stored short.",
  },
  {
    id: 'nat-rule-note-numeric-affinity',
    mechanism: 'type-coercion',
    rule: 'PATCH-1',
    description:
      'The note column has NUMERIC affinity (SQLite, a column declared NUMERIC by an ORM mapping): a note that reads as a number is stored and answered as that number, "0042" as 42.',
  },
  {
    id: 'nat-rule-text-trimmed',
    mechanism: 'framework-default',
    rule: 'PATCH-1',
    description:
      "The request binder trims every string it binds (a framework's default string trimmer): a name or note sent with spaces around it is stored and answered without them.",
  },
  {
    id: 'nat-rule-name-varchar-32',
    mechanism: 'column-truncation',
    rule: 'PATCH-1',
    description:
      "The rule's name is kept in a VARCHAR(32) column (MySQL, strict mode off): a longer name is stored and answered cut to 32 characters, with a 200.",
  },
  {
    id: 'nat-rule-nul-in-text-500',
    mechanism: 'unmapped-database-error',
    rule: 'PATCH-1',
    description:
      'A name or note holding a NUL character reaches PostgreSQL, which refuses it in text; the database error is not mapped and the update answers 500.',
  },
  // ---- how parameters arrive (issue 21) ----
  {
    id: 'workspace-id-brackets-merged',
    rule: 'POLICY-1',
    mechanism: 'parameter-pollution',
    description:
      'A qs-style parser merges `workspace_id[]` into the workspace_id the handler reads, while the workspace policy read the plain parameter: `workspace_id=<allowed>&workspace_id[]=<other>` serves the other workspace.',
  },
  {
    id: 'workspace-id-policy-first-handler-last',
    rule: 'POLICY-1',
    mechanism: 'parameter-pollution',
    description:
      'workspace_id given twice is accepted: the workspace-policy middleware reads the first value and the handler the last, so ?workspace_id=<allowed>&workspace_id=<other> serves the other workspace.',
  },
  {
    id: 'workspace-id-pollution-behind-list-cache',
    rule: 'POLICY-1',
    mechanism: 'parameter-pollution',
    description:
      "As workspace-id-policy-first-handler-last, behind a gateway that caches list answers for 60 s by the workspace its policy read: a repeated workspace_id on the bucket list is answered from the allowed workspace's cached list, while a read of one resource reaches the handler, which looks it up in the last workspace_id.",
  },
  {
    id: 'restore-lookup-by-prefix',
    rule: 'ERR-2',
    mechanism: 'loose-comparison',
    description:
      'A restore is looked up with LIKE :id%: a restore id with its last character cut off returns the restore it begins, instead of 404.',
  },
  {
    id: 'query-decoded-twice',
    mechanism: 'proxy-rewrite',
    rule: 'PARAM-1',
    description:
      'A gateway decodes the query string before forwarding it and the service decodes it again: workspace_id encoded twice (the text %31%30%34%32, no number) is served as workspace 1042.',
  },
  {
    id: 'workspace-id-int32-wraparound',
    rule: 'PARAM-1',
    mechanism: 'integer-wraparound',
    description:
      'workspace_id is converted with a 32-bit cast of its digits (`Number(v) >>> 0`): 2^32 + 1042, another workspace, is read as 1042 and served as that one.',
  },
  {
    id: 'path-encoded-slash-html-404',
    mechanism: 'framework-default',
    rule: 'PARAM-1',
    description:
      "The router decodes %2F before matching: a path id with an encoded slash has a segment too many, matches no route, and the framework's default 404 page (HTML, no JSON detail) answers.",
  },
  {
    id: 'path-id-nul-database-error',
    rule: 'PARAM-1',
    mechanism: 'unmapped-database-error',
    description:
      'A path id holding a NUL (%00) goes unvalidated to PostgreSQL, which refuses text containing 0x00; the driver error is answered 500 instead of a 4xx.',
  },
  {
    id: 'nat-rule-body-validated-copy',
    rule: 'PARAM-1',
    mechanism: 'validated-copy-not-used',
    description:
      'The NAT rule update is validated on a converted copy of the body (numbers and booleans read from text, enum values lower-cased and trimmed), as a validation pipe with implicit conversion does, but the handler stores the raw body: "2223" is accepted and stored as text, "UDP" as "UDP".',
  },
  {
    id: 'nat-rule-null-stored',
    mechanism: 'validated-copy-not-used',
    rule: 'PARAM-1',
    description:
      'The NAT rule update is validated with null members read as "not sent" (Optional fields), and the body is then written as sent: {"name": null} is answered 200 and the rule holds a null name.',
  },
  {
    id: 'nat-rule-enabled-truthy-text',
    rule: 'PARAM-1',
    mechanism: 'loose-comparison',
    description:
      'The NAT rule update accepts `enabled` as a boolean or the text "true"/"false" (a form-style binder) and stores its truthiness: the text "false" is stored as true.',
  },
  {
    id: 'nat-rule-port-bool-accepted',
    rule: 'PARAM-1',
    mechanism: 'type-coercion',
    description:
      "The NAT rule update checks a port with Python's `isinstance(v, int)`, and a bool is an int: `external_port: true` passes as 1, is stored as sent and answered as `true`.",
  },
  {
    id: 'nat-rule-port-float-kept',
    rule: 'PARAM-1',
    mechanism: 'wrong-serialisation',
    description:
      'The NAT rule update reads the body with Python\'s json, which keeps `8082.0` a float, checks ports with `float.is_integer()`, and stores the float: the rule is answered with `"external_port":8082.0`, which a typed client refuses.',
  },
  {
    id: 'workspace-id-isdigit-then-int',
    rule: 'PARAM-1',
    mechanism: 'unhandled-exception',
    description:
      "workspace_id is checked with Python's `str.isdigit()`, which counts superscript digits, then read with `int()`, which refuses them: `¹⁰⁴²` reaches the generic error handler, which answers 500.",
  },
  // ---- ids and timestamps consistent (issue 21) ----
  {
    id: 'restore-internal-id-exposed',
    rule: 'REC-1',
    mechanism: 'internal-id-exposed',
    description:
      'The restore is found by its public id, but the record answered carries the row\'s primary key ("1") as restore_id, as an ORM serialising `id` instead of `public_id` does.',
  },
  {
    id: 'restore-times-swapped',
    rule: 'REC-1',
    mechanism: 'wrong-field-name',
    description:
      "The restore record's view maps the completed_at column to started_at and the other way round: a finished restore completes before it started.",
  },
  {
    id: 'backup-policy-internal-vm-id',
    rule: 'BACKUP-2',
    mechanism: 'internal-id-exposed',
    description:
      "The backup policy answered carries the VM's internal row number as vm_id (the policy row's foreign key) instead of the VM's public id.",
  },
  {
    id: 'nat-rule-update-resets-created-at',
    mechanism: 'upsert-instead-of-insert',
    rule: 'PATCH-1',
    description:
      'An update saves the rule with INSERT OR REPLACE: the row is written anew and its created_at column default stamps it created at the moment of the update.',
  },
  {
    id: 'nat-rule-text-python-str',
    rule: 'PARAM-1',
    mechanism: 'default-string-conversion',
    description:
      'The NAT rule update declares name and note with a lax text type (pydantic v1\'s `str`) that converts whatever arrives with Python\'s str(): `true` is stored as "True", `false` as "False".',
  },
  {
    id: 'nat-rule-note-varchar-255',
    mechanism: 'column-truncation',
    rule: 'PATCH-1',
    description:
      "The rule's note is kept in a VARCHAR(255) column (MySQL, strict mode off): a longer note is stored and answered cut to 255 characters, with a 200.",
  },
  // ---- every key space isolated (issue 21) ----
  {
    id: 'idempotency-key-cut-at-64',
    rule: 'IDEM-2',
    mechanism: 'column-truncation',
    description:
      'Idempotency keys are kept in a VARCHAR(64) column (MySQL, strict mode off): two keys that share their first 64 characters are one key, so the second create is answered as a replay of the first.',
  },
  {
    id: 'idempotency-key-case-insensitive',
    rule: 'IDEM-2',
    mechanism: 'loose-comparison',
    description:
      "Idempotency keys are kept in a column under MySQL's default collation (utf8mb4_0900_ai_ci), which compares without regard to case: a create whose key differs from an earlier one only in letter case is answered as a replay of it.",
  },
  {
    id: 'idempotency-key-global',
    rule: 'ISO-1',
    mechanism: 'global-key-space',
    description:
      "Stored answers are looked up by X-Idempotency-Key and request alone, not by workspace: the same key and body sent in another workspace replays the first workspace's acceptance record there.",
  },
  // ---- the trials of 2026-11-26 ----
  {
    id: 'cross-workspace-resource-exists-403',
    rule: 'ISO-1',
    mechanism: 'existence-leak',
    description:
      'A resource of another workspace of the organization answers 403 "belongs to another workspace" to every token, one that may access both workspaces included: the refusal tells that the id exists elsewhere, and names a lack the token does not have.',
  },
  {
    id: 'gpu-vm-owned-elsewhere-409',
    rule: 'ISO-1',
    mechanism: 'existence-leak',
    description:
      'Enable-backups and delete refuse a GPU VM of another workspace with 409 Conflict ("belongs to workspace N"): an ownership check raised as a conflict, which tells that the VM exists and where.',
  },
  {
    id: 'backup-timezone-constant',
    rule: 'BACKUP-2',
    mechanism: 'wrong-constant',
    description:
      "Enable backups stores the schedule's time zone as the constant UTC (a scheduler written for UTC only): a policy asked for Europe/Berlin shows UTC.",
  },
  {
    id: 'backup-day-of-week-dropped',
    rule: 'BACKUP-2',
    mechanism: 'missing-field',
    description:
      "The schedule's view maps frequency, timezone, hour, minute and window but not day_of_week: a weekly policy sent day 3 shows day_of_week null.",
  },
  {
    id: 'backup-hour-zero-read-as-default',
    rule: 'BACKUP-2',
    mechanism: 'falsy-default',
    description:
      'The schedule takes its hour with `hour || 20`: a schedule sent hour 0 (midnight) shows hour 20, the default.',
  },
  {
    id: 'backup-day-of-week-zero-read-as-none',
    rule: 'BACKUP-2',
    mechanism: 'falsy-default',
    description:
      'The schedule keeps its day with `day_of_week or None`: a weekly policy sent day 0 (the first day where days count from 0) shows day_of_week null.',
  },
  // ---- stop 34: resources made for the run prove what a refused or retried request did ----
  {
    id: 'workspace-policy-substring-match',
    rule: 'POLICY-1',
    mechanism: 'loose-comparison',
    description:
      "The workspace policy looks the workspace up in the token's selected list joined by commas, by substring (`selected.join(',').includes(id)`): in an organization that also has workspace 104, a token that selects only 1042 is served 104.",
  },
  {
    id: 'nat-rule-member-names-case-insensitive',
    rule: 'NEG-2',
    mechanism: 'loose-comparison',
    description:
      'The NAT rule update is validated by exact member names, then decoded by a JSON decoder that matches member names to fields case-insensitively (Go\'s encoding/json): `NOTE` or `ENABLED` is written to note or enabled, and `PROTOCOL: "icmp"`, never validated, is stored.',
  },
  {
    id: 'guard-answers-after-dispatch',
    rule: 'REFUSE-1',
    mechanism: 'unawaited-promise',
    description:
      'The authentication middleware calls `next()` before it awaits its token, scope and workspace lookup: a delete or release is refused with 401 or 403, and carried out all the same.',
  },
  {
    id: 'release-removed-before-workspace-check',
    rule: 'ISO-1',
    mechanism: 'act-before-check',
    description:
      'Release runs `DELETE FROM reserved_ips WHERE id = $1 AND assigned_vm IS NULL RETURNING workspace_id` in autocommit, then compares the workspace: another workspace gets 404, but the IP is already gone.',
  },
  {
    id: 'delete-started-before-workspace-check',
    rule: 'ISO-1',
    mechanism: 'act-before-check',
    description:
      "Delete sets the VM's state to deleting (`UPDATE … SET state = 'deleting' WHERE id = $1 RETURNING workspace_id`) before comparing the workspace: another workspace gets 404, and the VM's own workspace then gets 409 for a delete.",
  },
  {
    id: 'release-204-body-on-the-wire',
    rule: 'RESP-2',
    mechanism: 'framework-default',
    description:
      'Release echoes `{"released":true}` after setting 204, and the server (PHP\'s built-in one) passes the bytes through after the head and closes the connection: HTTP clients drop them, a client reading on from the connection reads them.',
  },
  {
    id: 'release-gateway-retry-404',
    rule: 'RESP-2',
    mechanism: 'gateway-retry',
    description:
      'The gateway retries a release (DELETE is idempotent) after a per-try timeout shorter than the cloud call: the slow first attempt released the IP, the retry finds nothing, and its 404 is what the client gets.',
  },
  {
    id: 'nat-rule-update-per-field-commit',
    rule: 'PATCH-1',
    mechanism: 'non-transactional-write',
    description:
      "A NAT rule update runs one autocommit UPDATE per field, in body order: a port past 65535 fails the column's CHECK constraint with 400, and the fields written before it stay written.",
  },
  {
    id: 'backup-refused-schedule-keeps-policy',
    rule: 'BACKUP-2',
    mechanism: 'act-before-check',
    description:
      'Enable backups commits the policy row before the scheduler checks the schedule: an invalid schedule is refused with 400, but the policy stays, so the next valid enable gets 409.',
  },
  {
    id: 'backup-incremental-off-for-daily-full',
    rule: 'BACKUP-2',
    mechanism: 'silent-business-rule',
    description:
      'A business rule ("a daily full backup makes incrementals pointless") turns incremental_enabled off when full_backup_interval_days is 1, instead of keeping it or refusing the request.',
  },
  {
    id: 'workspace-id-header-overrides-query',
    rule: 'POLICY-1',
    mechanism: 'client-set-internal-header',
    description:
      'The service reads the workspace from X-Workspace-Id (the header the gateway sets for it) before the query, and the gateway, which decided the workspace policy on the query, does not strip the header from client requests.',
  },
  {
    id: 'scope-skipped-on-path-case',
    rule: 'SCOPE-1',
    mechanism: 'path-normalisation-mismatch',
    description:
      "The router matches paths case-insensitively (Express's default) while the scope guard's table matches them as written: DELETE /v1/NETWORKING/RESERVED-IPS/{id} finds no guard entry and releases the IP for a token without network.write.",
  },
  {
    id: 'scope-decided-on-raw-prefix',
    rule: 'SCOPE-1',
    mechanism: 'path-normalisation-mismatch',
    description:
      "The gateway's scope table is keyed by the raw path, and the service resolves dot segments: DELETE /v1/compute/../networking/reserved-ips/{id} matches no entry, is forwarded without a scope decision, and releases the IP for a token without network.write.",
  },
  {
    id: 'error-page-negotiated-html',
    rule: 'ERR-1',
    mechanism: 'content-negotiation',
    description:
      "The error controller negotiates the format (Spring's default): an error asked with a browser's Accept list gets an HTML error page instead of the JSON object with detail.",
  },
  {
    id: 'gateway-unpriced-plan-passes',
    rule: 'BILL-6',
    mechanism: 'fail-open',
    description:
      'The gateway refuses only on `allowed: false`; billing answers an error for a plan missing from its price list (plan-std-4c-8g), so a create of that plan goes through in a denied workspace.',
  },
  {
    id: 'idempotency-placeholder-replayed',
    rule: 'CONC-1',
    mechanism: 'placeholder-record',
    description:
      'The idempotency row is inserted with a placeholder answer (status "pending", null ids) before the create runs: a copy of the request that arrives meanwhile is answered 202 with the placeholder, naming no operation.',
  },
  {
    id: 'nat-rule-duplicate-member-first-validated',
    rule: 'NEG-1',
    mechanism: 'validated-copy-not-used',
    description:
      'The gateway validates the body with a first-match field lookup (gjson) while the service decodes it last-wins: {"external_port": 2300, "external_port": "2300; DROP"} passes validation and the text is stored as the port.',
  },
] as const satisfies readonly FaultEntry[];

export type FaultId = (typeof faultCatalogue)[number]['id'];

const FAULT_IDS: ReadonlySet<string> = new Set(faultCatalogue.map((fault) => fault.id));

export function isFaultId(value: string): value is FaultId {
  return FAULT_IDS.has(value);
}
