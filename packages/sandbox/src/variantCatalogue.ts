/** A legitimate choice where the API document says "not shown": a correct sandbox that differs. */
export interface VariantEntry {
  readonly id: string;
  /** The gap (spec/gaps/not-shown.yaml) or assumption (spec/gaps/assumptions.yaml) the variant exercises. */
  readonly gap: string;
  readonly description: string;
}

/** Every named variant. A conformance suite must pass every one of them with no failure. */
export const variantCatalogue = [
  {
    id: 'workspace-id-422',
    gap: 'NS-WORKSPACE-ID-STATUS',
    description: 'An invalid or missing workspace_id answers 422 instead of 400.',
  },
  {
    id: 'billing-refusal-402',
    gap: 'NS-BILLING-REFUSAL-STATUS',
    description: 'The gateway refuses a billable create with 402 instead of 403.',
  },
  {
    id: 'billing-refusal-409',
    gap: 'NS-BILLING-REFUSAL-STATUS',
    description: 'The gateway refuses a billable create with 409 instead of 403.',
  },
  {
    id: 'parameters-checked-before-auth',
    gap: 'A-CHECK-ORDER',
    description:
      'Parameters (workspace_id, X-Idempotency-Key) are validated before the token, scope and workspace policy.',
  },
  {
    id: 'extra-record-fields',
    gap: 'A-RECORD-EXTRA-FIELDS',
    description: 'Every JSON record (success and error, list items too) carries extra undocumented fields.',
  },
  {
    id: 'backup-enable-twice-returns-policy',
    gap: 'NS-BACKUP-ENABLE-TWICE',
    description:
      'Enabling backups on a VM that already has a policy answers 200 with the existing policy instead of 409.',
  },
  {
    id: 'timestamps-with-offset',
    gap: 'A-TIMESTAMP-UTC-NOTATION',
    description: 'Timestamps are written with +00:00 instead of Z.',
  },
  {
    id: 'timestamps-offset-hours',
    gap: 'A-TIMESTAMP-UTC-NOTATION',
    description: 'Timestamps write their UTC offset as hours alone (+00), as ISO 8601 allows.',
  },
  {
    id: 'timestamps-nanoseconds',
    gap: 'A-TIMESTAMP-UTC-NOTATION',
    description: 'Timestamps carry nine fraction digits (nanoseconds), as ISO 8601 allows.',
  },
  {
    id: 'released-ip-conflict',
    gap: 'NS-OTHER-RESOURCE-FIELDS',
    description:
      'A released reserved IP stays known in state "released": releasing it again answers 409 instead of 404.',
  },
  {
    id: 'deleted-vm-gone-404',
    gap: 'NS-VM-STATES',
    description:
      'A GPU VM whose delete was accepted is gone at once: deleting it again or enabling its backups answers 404 instead of 409.',
  },
  {
    id: 'rejected-tokens-403',
    // Also A-OTHER-ENVIRONMENT-TOKEN: neither a revoked token's status nor that of a token of the
    // other environment is shown.
    gap: 'A-REVOKED-TOKEN-STATUS',
    description:
      'A revoked token, and a token of the other environment (or with its prefix), answer 403 instead of 401.',
  },
  {
    id: 'cross-workspace-resource-403',
    // No status is shown for a resource asked through another workspace of the organization: the
    // resource is not found there (404) and the request may not use the resource's workspace (403);
    // A-CHECK-ORDER lets a request that meets two refusals get either.
    gap: 'A-CHECK-ORDER',
    description:
      'A resource that exists in another workspace of the organization, asked by a token that may not access that workspace, answers 403 (the token may not access its workspace) instead of 404; a token that may access both still gets 404.',
  },
  {
    id: 'idempotency-in-flight-409',
    gap: 'A-IDEMPOTENCY-IN-FLIGHT',
    description:
      'Keyed VM writes take a store round trip; a copy with the same X-Idempotency-Key arriving while the first is processed answers 409 (the retry after it gets the stored answer).',
  },
  {
    id: 'writes-with-store-latency',
    gap: 'A-IDEMPOTENCY-IN-FLIGHT',
    description:
      'Every write takes a store round trip and is correct under overlap: a copy with the same key waits for the first and gets its answer, ids are claimed atomically, a NAT rule update reads and writes the rule in one step.',
  },
  {
    id: 'nat-rule-update-conflict-409',
    gap: 'A-CONCURRENT-UPDATE-CONFLICT',
    description:
      'A NAT rule update takes a store round trip; another non-empty update of the same rule arriving meanwhile answers 409 Conflict and changes nothing.',
  },
  {
    id: 'nat-rule-busy-after-change',
    gap: 'NS-NAT-RULE-TRANSITIONS',
    description:
      'A NAT rule that an update changed is provisioning for 300 ms, and every update of it meanwhile, an empty one included, answers 409 Conflict.',
  },
  {
    id: 'nat-update-empty-refused',
    gap: 'A-NAT-UPDATE-EMPTY-BODY',
    description:
      'A NAT rule update must name a field, as a validator with minProperties 1 requires: an empty one ({}) answers 400 Bad Request and changes nothing.',
  },
  {
    id: 'idempotency-keys-per-workspace',
    gap: 'A-IDEMPOTENCY-KEY-SCOPE',
    description:
      'Each workspace has its own X-Idempotency-Key space: a key reused in another workspace starts a new operation there instead of being refused with 422.',
  },
  {
    id: 'server-clock-ahead',
    gap: 'A-TIMESTAMP-PLAUSIBILITY',
    description:
      "The server's clock runs 90 s ahead of the client's: its timestamps and its Date header agree with each other, not with the client's clock.",
  },
  {
    id: 'repeated-workspace-id-first-wins',
    gap: 'A-REPEATED-WORKSPACE-ID',
    description:
      'A workspace_id given twice is not refused: its first value is the workspace, for the policy check and the handler alike.',
  },
  {
    id: 'lenient-body-coercion',
    gap: 'A-LENIENT-COERCION',
    description:
      'The NAT rule update converts what a lax framework converts before validating (integers and booleans from their text, 0/1 for a boolean, text from a number or a boolean as JSON spells it, enum values trimmed and lower-cased) and stores the converted, correctly typed values.',
  },
  {
    id: 'optional-fields-absent',
    gap: 'A-OPTIONAL-FIELD-ABSENT',
    description:
      'Null members are left out of every answer, as a serializer that drops nulls does: optional fields without a value are absent instead of null.',
  },
  {
    id: 'defaulted-fields-absent',
    gap: 'A-OPTIONAL-FIELD-ABSENT',
    description:
      'A NAT rule record leaves out each optional field that equals its documented default (protocol tcp, note empty, enabled true): the field reads as its default.',
  },
  {
    id: 'retry-reports-current-status',
    gap: 'NS-OPERATION-STATES',
    description:
      'A retry with the same X-Idempotency-Key is answered 202 with the operation it started as that operation stands now: status `running`, not the `accepted` of its first answer.',
  },
  {
    id: 'chunked-connection-close',
    gap: 'A-HTTP-FRAMING',
    description:
      'Every answer with a body is sent with chunked transfer coding in two pieces (no Content-Length), `application/json; charset=utf-8`, and `Connection: close`.',
  },
  {
    id: 'uuid-identifiers',
    gap: 'A-IDENTIFIER-FORM',
    description:
      'New operations and VMs are named by random UUIDs (`op-3f2c…`), not by a sequence: identifiers are opaque.',
  },
  {
    id: 'nat-internal-ip-in-vpc-range',
    gap: 'NS-FIELD-BOUNDS',
    description:
      "A NAT rule update moving internal_ip outside the VPC's subnet (10.0.1.0/26) is refused with 400: which addresses a VPC accepts is not shown.",
  },
  {
    id: 'backup-days-counted-from-1',
    gap: 'NS-FIELD-BOUNDS',
    description:
      'Days of the week count from 1 (Monday) to 7, as ISO 8601 numbers them: a schedule with day_of_week 0 is refused with 400.',
  },
] as const satisfies readonly VariantEntry[];

export type VariantId = (typeof variantCatalogue)[number]['id'];

const VARIANT_IDS: ReadonlySet<string> = new Set(variantCatalogue.map((variant) => variant.id));

export function isVariantId(value: string): value is VariantId {
  return VARIANT_IDS.has(value);
}
