/**
 * The rule catalogue: every rule sentence of the API document the suite checks, quoted exactly,
 * with the latitude the document leaves ("not shown") and the targets able to check it.
 * Tests name their rule by starting their title with its ID (for example `WS-2 rejects ...`).
 */

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
    latitude: 'Status of the rejection not shown: any 4xx passes (A-WORKSPACE-ID-STATUS).',
    targets: ALL,
  },
  {
    id: 'WS-2',
    level: 'MUST',
    title: 'workspace_id must be a positive number; zero, negative and non-numeric values are rejected',
    quotes: ['`workspace_id` must be a positive number; zero, negative and non-numeric values are rejected.'],
    latitude:
      'Status code returned for an invalid `workspace_id` (zero, negative, non-numeric): not shown — any 4xx passes. Leading zeros and huge numbers are never generated as valid (A-WORKSPACE-ID-LEADING-ZEROS).',
    targets: ALL,
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
      "Forms derived from the profile's own workspaces (`-1042`, `1042abc`, `abc1042`, `10 42`, `0`, `-0`), so a server that normalises the value cannot map them onto a workspace that does not exist. Any 4xx passes (A-WORKSPACE-ID-STATUS); the same request with the real ID must not be refused for its form.",
    targets: ALL,
  },
  {
    id: 'WS-5',
    level: 'SHOULD',
    title: 'Non-canonical spellings of a real workspace_id are not served as that workspace',
    quotes: [WS_QUOTE_A],
    latitude:
      'Whether `+1042`, `01042`, ` 1042`, `1042.0`, `1.042e3`, `0x412` or full-width digits are "numeric" is not shown (A-WORKSPACE-ID-CANONICAL-FORM): a server that reads them as 1042 follows a reading of the document, so this is a SHOULD. Any 4xx passes.',
    targets: ALL,
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
      'Lower-case `bearer` is never generated as malformed (auth schemes are case-insensitive in HTTP).',
    targets: STATEFUL,
    whyNotPrism:
      'Prism accepts any Authorization value that starts with a scheme; it cannot tell malformed tokens.',
  },
  {
    id: 'AUTH-2',
    level: 'MUST',
    title: 'An unknown or invalid token returns 401',
    quotes: ['401 Unauthorized | The token is missing, malformed, expired or invalid.'],
    latitude: 'Token lifetime: not shown — expired tokens cannot be generated, unknown ones are.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
  },
  {
    id: 'AUTH-3',
    level: 'MUST',
    title: 'Revoked tokens are rejected immediately on all later requests',
    quotes: ['Revoked tokens are rejected immediately on all later requests.'],
    latitude: 'The document gives no status: 401 or 403 passes (A-REVOKED-TOKEN-STATUS).',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['revokedToken'],
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
  },
  {
    id: 'ENV-2',
    level: 'MUST',
    title: 'The version is part of the base address: the base URL ends with /v1',
    quotes: [
      'The version is part of the base address: {base_url} ends with `/v1`, and {dev_base_url} ends with `/v1`.',
    ],
    targets: ALL,
  },
  {
    id: 'SCOPE-1',
    level: 'MUST',
    title: 'A request to an endpoint whose scope the token lacks returns 403',
    quotes: ['Rule: a request to an endpoint whose scope the token lacks returns `403 Forbidden`.'],
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['an identity lacking the scope of at least one operation'],
  },
  {
    id: 'SCOPE-2',
    level: 'MUST',
    title: 'A token holding the scope and allowed the workspace is not refused with 401/403',
    quotes: ["A request outside the token's scopes or workspace policy returns 403."],
    latitude:
      'Answers other than 401/403 (2xx, 404, 409 on consumed resources) pass; on a workspace other than the one holding the resources a 403 for an operation that names a resource passes too (no status is shown for a resource asked through another workspace). Only grants count as evidence.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
  },
  {
    id: 'POLICY-1',
    level: 'MUST',
    title: 'A specific-workspaces token gets 403 on a workspace outside its list',
    quotes: [
      'Specific workspaces | Token may access only the selected workspaces; requests to others return `403 Forbidden`.',
    ],
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['an identity with a workspace list that leaves out a profile workspace'],
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
      "The status of a resource asked through the wrong workspace is not shown: 403 and 404 pass, never a 2xx. After the attempt the NAT rule is read back through its own workspace and must be unchanged; GPU VMs and reserved IPs have no read endpoint in the document (not shown), so for delete, release and enable-backups only the answer is judged. An X-Idempotency-Key reused with the same create in another workspace may start a new operation there or be refused (what a key is scoped to is not shown: A-IDEMPOTENCY-KEY-SCOPE); it must never be answered with the first workspace's acceptance record.",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: [
      'resources (a restore, a NAT rule, GPU VMs or reserved IPs) and an identity that may use both workspaces',
    ],
  },
  {
    id: 'ASYNC-1',
    level: 'MUST',
    title: 'Async VM operations answer 202 with the operation acceptance record',
    quotes: [
      'Creating, deleting, starting, stopping and rebooting virtual machines are asynchronous: the endpoint answers `202 Accepted` with an operation record that can be polled.',
    ],
    latitude: 'Extra fields in the record pass (A-RECORD-EXTRA-FIELDS).',
    targets: ALL,
    needs: ['mutations: true', 'resources.deletableGpuVmIds (delete)'],
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
      "UTC written as `Z` or `+00:00` (A-TIMESTAMP-UTC-NOTATION). A fresh `submitted_at` names about now: within 5 minutes of the answer's Date header, or 10 minutes of this machine's clock without one (A-TIMESTAMP-PLAUSIBILITY); on Prism, whose records are fixed examples, only the form is judged.",
    targets: ALL,
    needs: ['mutations: true'],
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
  },
  {
    id: 'IDEM-2',
    level: 'MUST',
    title: 'Retrying with the same key after a network failure is safe',
    quotes: [
      'retrying with the same key after a network failure is safe.',
      'Idempotency: the same `X-Idempotency-Key` may be reused when retrying a VM create, delete or power request.',
    ],
    latitude: 'Only identical requests are replayed (A-IDEMPOTENCY-KEY-FORMAT).',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true'],
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
  },
  {
    id: 'BILL-5',
    level: 'MUST',
    title: 'The preflight needs billing.read; the create needs only the product write scope',
    quotes: [
      'The token needs `billing.read` for this call. Create requests themselves need only the product write scope, because the gateway makes its own authoritative decision before forwarding a create, and it refuses when the decision cannot be made.',
    ],
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_TOKENS,
    needs: ['an identity lacking billing.read'],
  },
  {
    id: 'BILL-6',
    level: 'MUST',
    title: 'The gateway refuses a billable create when its decision denies it',
    quotes: [
      'A denied, malformed or unavailable billing decision blocks a billable create at the gateway; the status code of that refusal: not shown.',
    ],
    latitude:
      'Any non-2xx answer with a JSON `detail` passes (A-BILLING-REFUSAL-STATUS); create cloud VM is taken as a billable create (A-CREATE-VM-BILLABLE).',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'workspaces.billingDenied'],
  },
  {
    id: 'BILL-7',
    level: 'MUST',
    title: 'The preflight answers a decision containing a boolean allowed',
    quotes: ['Response: decision containing `allowed` (boolean).'],
    latitude: 'Any 2xx status (A-SUCCESS-STATUS-UNNUMBERED); other decision fields are not shown and pass.',
    targets: ALL,
  },
  {
    id: 'ERR-1',
    level: 'MUST',
    title: 'Errors return a JSON object with a string detail',
    quotes: [
      'Errors return a JSON object with a `detail` field. Example shape: `detail` is a human-readable string.',
    ],
    latitude: 'Internal structure of the `ErrorDetail` type: not shown — extra fields pass.',
    targets: ALL,
  },
  {
    id: 'ERR-2',
    level: 'MUST',
    title: 'A resource that does not exist returns 404',
    quotes: ['404 Not Found | The resource was not found.'],
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
  },
  {
    id: 'ERR-3',
    level: 'MUST',
    title: 'Invalid requests are client errors, never 5xx',
    quotes: ['400 Bad Request | The request is invalid (listed for enable-backups and update-NAT-rule).'],
    latitude: 'Any status below 500 passes for malformed input.',
    targets: STATEFUL,
    whyNotPrism:
      'Prism answers some malformed input with its own 5xx-free problem documents but also with examples; it is not an implementation.',
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
      'Generated from the spec\'s request schemas: malformed JSON, JSON that is not an object (array, string, number, true), a field of a type no reading of the document allows (an object or array for a scalar, text for an integer or a boolean), a value outside an enum. Any 4xx passes (A-ERROR-STATUS-UNLISTED). Lenient coercions some frameworks make (the string "2" for an integer, a number for a string, `null` for a body) are not generated. A refused PATCH must leave the NAT rule as it was.',
    targets: STATEFUL,
    whyNotPrism:
      'Prism validates requests but answers from examples; it keeps no state to show that nothing changed.',
    needs: ['mutations: true (bodies are sent to operations that change state when they accept)'],
  },
  {
    id: 'NEG-2',
    level: 'SHOULD',
    title: 'Unknown and read-only fields in a NAT rule update are refused or ignored, never applied',
    quotes: ['Body, every field optional (partial update):'],
    latitude:
      'The document is silent on fields outside the body table: a 4xx, or a 2xx that ignores them, passes; a record showing the sent value of a read-only field (status, ids, timestamps) fails.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.natRules'],
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
      "No sentence says what a second delete of a deleting GPU VM or a second release of a released IP answers: 404 or 409 pass, a fresh 202/204 fails; checked as SHOULD. Enabling backups twice is BACKUP-1's (A-BACKUP-ENABLE-TWICE).",
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.deletableGpuVmIds or resources.releasableReservedIpIds'],
  },
  {
    id: 'RESP-1',
    level: 'MUST',
    title: 'All responses are JSON; a success returns the resource itself',
    quotes: ['All responses are JSON. A successful response returns the resource itself, not an envelope.'],
    latitude: 'Extra fields pass; schemas carrying x-assumptions are relaxed here and checked by RESP-3.',
    targets: ALL,
  },
  {
    id: 'RESP-2',
    level: 'MUST',
    title: 'Release reserved IP answers 204 with no body',
    quotes: ['No body. Response 204 with no body. Errors: 401, 403, 404, 409.'],
    targets: ALL,
    needs: ['mutations: true', 'resources.releasableReservedIpIds'],
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
      'The shape of a bucket is not shown: any items pass. An object wrapping the list (`{"items": [...]}`) is the envelope general rule 2 excludes (A-BUCKET-LIST-ARRAY).',
    targets: ALL,
  },
  {
    id: 'PATCH-1',
    level: 'MUST',
    title: 'PATCH NAT rule is a partial update returning the updated record',
    quotes: [
      'Body, every field optional (partial update):',
      'a rule update (PATCH) returns the updated rule record.',
    ],
    latitude: 'A 409 for a conflicting value is tolerated; the rule is restored afterwards.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.natRules'],
  },
  {
    id: 'BACKUP-1',
    level: 'MUST',
    title: 'Enable backups with an empty body applies the documented defaults',
    quotes: [
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
      'Response 200: backup policy record.',
    ],
    latitude:
      'Bounds are not shown: values stay inside A-POSITIVE-BACKUP-VALUES (retention 1-14 days, full backups every 1-7 days, hour 0-23, minute 0-59, window 30-60 minutes, timezone UTC); day_of_week is left out (its numbering is not shown). A second enable may answer 409 or 200 with the same policy (A-BACKUP-ENABLE-TWICE), which must still show the values.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'resources.gpuVmIds (a third to fifth GPU VM without a backup policy)'],
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
      'A client whose answer was lost cannot know whether its first request is still being processed, so a retry may overlap it. How the overlapping copy is answered is not shown (A-IDEMPOTENCY-IN-FLIGHT): the same acceptance record or any 4xx passes; two operations or two VMs for one key fail. A run that cannot put two requests in flight together (concurrency 1, a rate limit) is inconclusive, not passed.',
    targets: STATEFUL,
    whyNotPrism: PRISM_NO_STATE,
    needs: ['mutations: true', 'concurrency of 2 or more'],
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
  },
];
