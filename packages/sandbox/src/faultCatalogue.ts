/** A deliberate defect that breaks exactly one rule of the API document (for mutation testing). */
export interface FaultEntry {
  readonly id: string;
  /** The rule ID (see the conformance rule catalogue) the fault breaks. */
  readonly rule: string;
  readonly description: string;
}

/**
 * Every named fault. Each is a small switch in one code path of the sandbox; a conformance
 * suite with teeth fails `rule` (at least) when run against a sandbox started with the fault.
 */
export const faultCatalogue = [
  // workspace_id
  {
    id: 'accept-missing-workspace-id',
    rule: 'WS-1',
    description:
      'A request without workspace_id is served in the primary workspace instead of being rejected.',
  },
  {
    id: 'accept-zero-workspace-id',
    rule: 'WS-2',
    description: 'workspace_id=0 (or 00, -0) is served in the primary workspace instead of being rejected.',
  },
  {
    id: 'accept-negative-workspace-id',
    rule: 'WS-2',
    description: 'A negative workspace_id is served in the primary workspace instead of being rejected.',
  },
  {
    id: 'accept-non-numeric-workspace-id',
    rule: 'WS-2',
    description: 'A non-numeric workspace_id (e.g. "abc", "1.5") is served in the primary workspace.',
  },
  // authentication
  {
    id: 'accept-missing-authorization',
    rule: 'AUTH-1',
    description: 'A request without an Authorization header is served with full rights.',
  },
  {
    id: 'accept-basic-auth',
    rule: 'AUTH-1',
    description:
      'Authorization: Basic is accepted: as the identity of a known token inside it (raw or base64, as user or password), else with full rights.',
  },
  {
    id: 'accept-raw-token',
    rule: 'AUTH-1',
    description: 'An Authorization header holding a known token without the Bearer scheme is accepted.',
  },
  {
    id: 'accept-unknown-token',
    rule: 'AUTH-2',
    description: 'Any unknown token with the environment prefix is accepted with full rights.',
  },
  {
    id: 'accept-revoked-token',
    rule: 'AUTH-3',
    description: 'The revoked token is still accepted, with full rights.',
  },
  {
    id: 'accept-other-environment-token',
    rule: 'ENV-1',
    description:
      'The environment prefix is not checked: the other environment token, and a known token with the other prefix, are accepted.',
  },
  // scopes
  {
    id: 'ignore-scope-check-resource-eligibility',
    rule: 'SCOPE-1',
    description: 'The billing preflight does not check billing.read.',
  },
  {
    id: 'ignore-scope-list-buckets',
    rule: 'SCOPE-1',
    description: 'List buckets does not check object-storage.read.',
  },
  {
    id: 'ignore-scope-create-cloud-vm',
    rule: 'SCOPE-1',
    description: 'Create cloud VM does not check vm.write.',
  },
  {
    id: 'ignore-scope-enable-gpu-vm-backups',
    rule: 'SCOPE-1',
    description: 'Enable GPU VM backups does not check vm.write.',
  },
  {
    id: 'ignore-scope-delete-gpu-vm',
    rule: 'SCOPE-1',
    description: 'Delete GPU VM does not check vm.write.',
  },
  {
    id: 'ignore-scope-get-cloud-vm-snapshot-restore',
    rule: 'SCOPE-1',
    description: 'Get cloud VM snapshot restore does not check vm.read.',
  },
  {
    id: 'ignore-scope-update-nat-port-forwarding-rule',
    rule: 'SCOPE-1',
    description: 'Update NAT port-forwarding rule does not check network.write.',
  },
  {
    id: 'ignore-scope-release-reserved-ip',
    rule: 'SCOPE-1',
    description: 'Release reserved IP does not check network.write.',
  },
  {
    id: 'preflight-requires-vm-write',
    rule: 'BILL-5',
    description: 'The billing preflight requires vm.write instead of billing.read.',
  },
  {
    id: 'create-requires-billing-read',
    rule: 'BILL-5',
    description: 'Create cloud VM requires billing.read in addition to vm.write.',
  },
  // workspace policies
  {
    id: 'ignore-workspace-policy',
    rule: 'POLICY-1',
    description: 'A specific-workspaces token may access every workspace of the organization.',
  },
  {
    id: 'entire-organization-limited-to-primary',
    rule: 'POLICY-2',
    description: 'An entire-organization token gets 403 on every workspace but the primary one.',
  },
  // asynchronous operations
  {
    id: 'create-answers-201',
    rule: 'ASYNC-1',
    description: 'Create cloud VM answers 201 instead of 202 Accepted.',
  },
  {
    id: 'acceptance-missing-submitted-at',
    rule: 'ASYNC-1',
    description: 'The 202 acceptance record has no submitted_at.',
  },
  {
    id: 'acceptance-status-queued',
    rule: 'ASYNC-2',
    description: 'A freshly accepted operation reports status "queued" instead of "accepted".',
  },
  {
    id: 'acceptance-submitted-at-not-utc',
    rule: 'ASYNC-2',
    description: 'submitted_at is written with a +02:00 offset instead of UTC.',
  },
  {
    id: 'delete-acceptance-other-vm-id',
    rule: 'ASYNC-3',
    description: "The delete's acceptance record names another vm_id than the VM in the path.",
  },
  // idempotency
  {
    id: 'idempotency-key-optional',
    rule: 'IDEM-1',
    description: 'Create and delete are accepted without X-Idempotency-Key.',
  },
  {
    id: 'ignore-idempotency-key',
    rule: 'IDEM-2',
    description:
      'A replay with the same X-Idempotency-Key accepts a new operation (new record, second resource).',
  },
  // billing
  {
    id: 'gateway-ignores-billing-decision',
    rule: 'BILL-6',
    description: 'The gateway accepts a billable create in a workspace whose billing decision is denied.',
  },
  {
    id: 'preflight-allowed-as-string',
    rule: 'BILL-7',
    description: 'The preflight decision carries allowed as the string "true"/"false" instead of a boolean.',
  },
  // errors
  {
    id: 'error-without-detail',
    rule: 'ERR-1',
    description: 'Error bodies carry `message` instead of `detail`.',
  },
  {
    id: 'error-detail-number',
    rule: 'ERR-1',
    description: 'Error bodies carry the status code as a number in `detail`.',
  },
  {
    id: 'error-body-not-json',
    rule: 'ERR-1',
    description: 'Error bodies are plain text (text/plain) instead of a JSON object.',
  },
  {
    id: 'unknown-restore-answers-200',
    rule: 'ERR-2',
    description: 'Getting an unknown restore answers 200 with a placeholder record instead of 404.',
  },
  {
    id: 'unknown-reserved-ip-answers-204',
    rule: 'ERR-2',
    description: 'Releasing an unknown reserved IP answers 204 instead of 404.',
  },
  {
    id: 'malformed-json-answers-500',
    rule: 'ERR-3',
    description: 'A malformed JSON request body answers 500 instead of a 4xx.',
  },
  // responses
  {
    id: 'restore-in-envelope',
    rule: 'RESP-1',
    description: 'The restore record is wrapped in an envelope `{ "data": ... }` instead of returned itself.',
  },
  {
    id: 'backup-policy-missing-storage-backend',
    rule: 'RESP-1',
    description: 'The backup policy record lacks the required storage_backend field.',
  },
  {
    id: 'success-content-type-text',
    rule: 'RESP-1',
    description: 'Successful JSON answers are labelled Content-Type: text/plain.',
  },
  {
    id: 'release-answers-200-with-body',
    rule: 'RESP-2',
    description: 'Releasing a reserved IP answers 200 with a JSON body instead of 204 with none.',
  },
  // NAT rule partial update
  {
    id: 'patch-resets-unsent-fields',
    rule: 'PATCH-1',
    description:
      'PATCH replaces the rule: fields not sent are blanked (empty strings, port 0, protocol tcp, enabled true).',
  },
  {
    id: 'patch-ignores-sent-fields',
    rule: 'PATCH-1',
    description: 'PATCH answers 200 with the rule unchanged, ignoring the fields sent.',
  },
  // backup defaults
  {
    id: 'backup-default-retention-14',
    rule: 'BACKUP-1',
    description: 'Enable backups without retention_days applies 14 days instead of 7.',
  },
  {
    id: 'backup-default-window-60',
    rule: 'BACKUP-1',
    description: 'Enable backups without a schedule window applies window_minutes 60 instead of 30.',
  },
  // enums
  {
    id: 'nat-rule-status-extra-value',
    rule: 'ENUM-1',
    description: 'NAT rule records report status "active", a value outside the documented enum.',
  },
  {
    id: 'restore-status-extra-value',
    rule: 'ENUM-1',
    description: 'Restore records report status "completed", a value outside the documented enum.',
  },
] as const satisfies readonly FaultEntry[];

export type FaultId = (typeof faultCatalogue)[number]['id'];

const FAULT_IDS: ReadonlySet<string> = new Set(faultCatalogue.map((fault) => fault.id));

export function isFaultId(value: string): value is FaultId {
  return FAULT_IDS.has(value);
}
