import { errorResult, jsonResult, type OperationResult } from '../operationResult.js';
import { type NatRuleRecord, natRuleKey, SANDBOX_ORGANIZATION, type SandboxStore } from '../sandboxStore.js';
import { storeRoundTrip } from '../storeRoundTrip.js';
import type { OperationHandler, SandboxServices } from './operationContext.js';
import { inRequestWorkspace, notInWorkspace } from './workspaceFilter.js';

type RuleUpdate = Partial<
  Pick<
    NatRuleRecord,
    'name' | 'protocol' | 'external_port' | 'internal_ip' | 'internal_port' | 'note' | 'enabled'
  >
>;

/** The VPC subnet of the nat-internal-ip-in-vpc-range variant; the seeded rules' addresses are in it. */
const VPC_SUBNET = '10.0.1.0/26';

function inVpcSubnet(address: string): boolean {
  const match = /^10\.0\.1\.(\d{1,3})$/.exec(address);
  return match !== null && Number(match[1]) < 64;
}

/** How long the nat-rule-busy-after-change variant's rule stays provisioning after a change. */
const NAT_RULE_BUSY_MS = 300;

/** Rule states in which the rule cannot be changed (transitions are not shown by the document). */
const BUSY_STATES: ReadonlySet<string> = new Set(['provisioning', 'deleting']);

/** What the patch-resets-unsent-fields fault puts in every field the request did not send. */
const BLANK_RULE: Required<RuleUpdate> = {
  name: '',
  protocol: 'tcp',
  external_port: 0,
  internal_ip: '',
  internal_port: 0,
  note: '',
  enabled: true,
};

/** A partial update: fields not sent keep their values; `updated_at` advances. */
export const updateNatPortForwardingRule: OperationHandler = (request, services) => {
  const { store, behaviour, clock } = services;
  const { vpc_id = '', nat_gateway_id = '', port_forwarding_rule_id = '' } = request.pathParameters;
  const ruleKey = natRuleKey(vpc_id, nat_gateway_id, port_forwarding_rule_id);
  const rule = store.natRules.get(ruleKey);
  const visible =
    rule !== undefined &&
    (behaviour.fault === 'nat-rule-checked-against-organization'
      ? // The tenant check compares organizations: every workspace of it passes.
        rule.organization_id === SANDBOX_ORGANIZATION.id
      : inRequestWorkspace(rule.workspace_id, request, services, 'nat-rule-update-ignores-workspace'));
  if (!rule || !visible) {
    return notInWorkspace(
      services,
      request,
      rule?.workspace_id,
      `Port-forwarding rule ${port_forwarding_rule_id} of NAT gateway ${nat_gateway_id} in VPC ${vpc_id} was not found in workspace ${request.workspaceId}.`,
    );
  }
  if (BUSY_STATES.has(rule.status)) {
    return errorResult(
      409,
      `Port-forwarding rule ${port_forwarding_rule_id} is ${rule.status}; retry when it is available.`,
    );
  }
  const update = request.body as RuleUpdate;
  if (
    (behaviour.variant === 'nat-update-empty-refused' ||
      behaviour.fault === 'nat-update-strict-yet-replaces') &&
    Object.keys(update).length === 0
  )
    return errorResult(400, 'An update must name at least one field of the rule.');
  if (
    behaviour.variant === 'nat-internal-ip-in-vpc-range' &&
    typeof update.internal_ip === 'string' &&
    !inVpcSubnet(update.internal_ip)
  )
    return errorResult(
      400,
      `internal_ip ${update.internal_ip} is outside the subnet of VPC ${vpc_id} (${VPC_SUBNET}).`,
    );
  // PostgreSQL refuses a NUL in text mid-statement; the error reaches the generic handler.
  if (
    behaviour.fault === 'nat-rule-nul-in-text-500' &&
    [update.name, update.note].some((text) => typeof text === 'string' && text.includes('\u0000'))
  )
    return errorResult(500, 'Internal Server Error');
  // The port-unique-check-includes-self fault: the uniqueness query does not leave the rule out,
  // so the rule's own port is "already forwarded by another rule".
  if (behaviour.fault === 'nat-rule-port-unique-includes-self' && update.external_port === rule.external_port)
    return errorResult(409, `External port ${rule.external_port} is already forwarded by another rule.`);
  const changes = storedForm(pickUpdate(update), behaviour.fault);
  switch (behaviour.fault) {
    case 'nat-rule-read-modify-write': {
      // The record is read, the store round trip passes, and the whole record read is written
      // back with the sent fields on top: an update that landed meanwhile is overwritten.
      const read = { ...rule };
      return storeRoundTrip().then(() => {
        Object.assign(rule, read, changes);
        rule.updated_at = clock.laterThan(read.updated_at);
        return jsonResult(200, { ...rule });
      });
    }
    case 'patch-ignores-sent-fields':
      return answer(rule, services);
    case 'patch-resets-unsent-fields':
    case 'nat-update-strict-yet-replaces':
      Object.assign(rule, BLANK_RULE, changes);
      rule.updated_at = clock.laterThan(rule.updated_at);
      return answer(rule, services);
    case 'nat-rule-update-per-field-commit': {
      // One autocommit UPDATE per field, in body order; the ports' CHECK constraint fails on a
      // later one, and the fields written before it stay written.
      const inBodyOrder = Object.keys(update).filter((field) => field in changes);
      for (const [field, value] of inBodyOrder.map(
        (f) => [f, (changes as Record<string, unknown>)[f]] as const,
      )) {
        const port = field === 'external_port' || field === 'internal_port';
        if (port && (typeof value !== 'number' || value < 1 || value > 65_535))
          return errorResult(400, `${field} ${String(value)} violates check constraint "${field}_range".`);
        Object.assign(rule, { [field]: value });
        rule.updated_at = clock.laterThan(rule.updated_at);
      }
      return answer(rule, services);
    }
    case 'nat-rule-mass-assignment':
      // The whole body is copied onto the record: read-only and unknown fields too.
      Object.assign(rule, update);
      rule.updated_at = clock.laterThan(rule.updated_at);
      return answer(rule, services);
  }
  const apply = (): OperationResult => {
    if (behaviour.fault === 'nat-rule-port-float-kept')
      keepFloatPorts(store, ruleKey, changes, request.floatMembers);
    Object.assign(rule, changes);
    rule.updated_at = clock.laterThan(rule.updated_at);
    // INSERT OR REPLACE writes a new row, and the column default stamps it created now.
    if (behaviour.fault === 'nat-rule-update-resets-created-at' && Object.keys(changes).length > 0)
      rule.created_at = rule.updated_at;
    // The variant's rule is reconfigured for a moment after a change, and refuses updates then.
    if (behaviour.variant === 'nat-rule-busy-after-change' && Object.keys(changes).length > 0) {
      const answered = answer(rule, services);
      rule.status = 'provisioning';
      setTimeout(() => {
        if (rule.status === 'provisioning') rule.status = 'available';
      }, NAT_RULE_BUSY_MS).unref();
      return answered;
    }
    return answer(rule, services);
  };
  // An empty update changes no field: in the variants it takes no lock and no round trip.
  if (Object.keys(changes).length === 0) return apply();
  if (behaviour.variant === 'writes-with-store-latency')
    // Read and write happen together once the round trip is over: nothing lands between them.
    return storeRoundTrip().then(apply);
  if (behaviour.variant === 'nat-rule-update-conflict-409') {
    if (store.natRulesBeingUpdated.has(ruleKey))
      return errorResult(
        409,
        `Port-forwarding rule ${port_forwarding_rule_id} is being changed by another update; retry once that one has been answered.`,
      );
    store.natRulesBeingUpdated.add(ruleKey);
    return storeRoundTrip()
      .then(apply)
      .finally(() => store.natRulesBeingUpdated.delete(ruleKey));
  }
  return apply();
};

/**
 * The sent values as the store keeps them: as sent, unless a fault gives the store a column type
 * of its own (ports in a text column, the protocol in an upper-case database enum), which the
 * record read back then carries.
 */
function storedForm(changes: RuleUpdate, fault: string | undefined): RuleUpdate {
  const stored: Record<string, unknown> = { ...changes };
  if (fault === 'nat-rule-ports-stored-as-text')
    for (const port of ['external_port', 'internal_port'] as const)
      if (stored[port] !== undefined) stored[port] = String(stored[port]);
  if (fault === 'nat-rule-enabled-truthy-text' && stored.enabled !== undefined)
    stored.enabled = Boolean(stored.enabled);
  if (fault === 'nat-rule-protocol-stored-uppercase' && typeof stored.protocol === 'string')
    stored.protocol = stored.protocol.toUpperCase();
  // A request binder that trims every string it binds.
  if (fault === 'nat-rule-text-trimmed')
    for (const text of ['name', 'note'] as const) {
      const value = stored[text];
      if (typeof value === 'string') stored[text] = value.trim();
    }
  // A note column of NUMERIC affinity (SQLite) keeps text that reads as a number as that number.
  if (fault === 'nat-rule-note-numeric-affinity' && typeof stored.note === 'string') {
    const trimmed = stored.note.trim();
    if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) stored.note = Number(trimmed);
  }
  // An unsigned 16-bit port column with strict mode off stores a larger port as 65535.
  if (fault === 'nat-rule-port-clamped-to-16-bits')
    for (const port of ['external_port', 'internal_port'] as const) {
      const value = stored[port];
      if (typeof value === 'number' && value > 65_535) stored[port] = 65_535;
    }
  // A VARCHAR(32) name column, or a VARCHAR(255) note column, with strict mode off keeps the
  // first 32 (255) characters.
  if (fault === 'nat-rule-name-varchar-32' && typeof stored.name === 'string')
    stored.name = [...stored.name].slice(0, 32).join('');
  if (fault === 'nat-rule-note-varchar-255' && typeof stored.note === 'string')
    stored.note = [...stored.note].slice(0, 255).join('');
  // A utf8mb3 text column (strict mode off) cuts a value at its first 4-byte character.
  if (fault === 'nat-rule-text-utf8mb3')
    for (const text of ['name', 'note'] as const) {
      const value = stored[text];
      if (typeof value === 'string') stored[text] = value.replace(/[\u{10000}-\u{10FFFF}].*$/su, '');
    }
  return stored as RuleUpdate;
}

/** The rule record as the update answers it. */
function answer(rule: NatRuleRecord, services: SandboxServices): OperationResult {
  if (services.behaviour.fault === 'nat-rule-status-extra-value')
    return jsonResult(200, { ...rule, status: 'active' });
  if (services.behaviour.variant === 'defaulted-fields-absent') {
    // A serializer that leaves out a field equal to its documented default.
    const { protocol, note, enabled, ...rest } = rule;
    return jsonResult(200, {
      ...rest,
      ...(protocol !== 'tcp' ? { protocol } : {}),
      ...(note !== '' ? { note } : {}),
      ...(enabled !== true ? { enabled } : {}),
    });
  }
  const floats =
    services.behaviour.fault === 'nat-rule-port-float-kept'
      ? services.store.natRuleFloatPorts.get(
          natRuleKey(rule.vpc_id, rule.nat_gateway_id, rule.port_forward_rule_id),
        )
      : undefined;
  return jsonResult(200, rule, floats ? [...floats] : undefined);
}

/** The ports the update sets, kept as floats where the body wrote them so and as integers otherwise. */
function keepFloatPorts(
  store: SandboxStore,
  ruleKey: string,
  changes: RuleUpdate,
  floatMembers: readonly string[] | undefined,
): void {
  const floats = store.natRuleFloatPorts.get(ruleKey) ?? new Set<string>();
  for (const port of ['external_port', 'internal_port'] as const) {
    if (changes[port] === undefined) continue;
    if (floatMembers?.includes(port)) floats.add(port);
    else floats.delete(port);
  }
  store.natRuleFloatPorts.set(ruleKey, floats);
}

/** Only the fields the document lets a PATCH change; other keys in the body are ignored. */
function pickUpdate(update: RuleUpdate): RuleUpdate {
  const picked: RuleUpdate = {};
  for (const key of Object.keys(BLANK_RULE) as (keyof RuleUpdate)[]) {
    if (update[key] !== undefined) (picked as Record<string, unknown>)[key] = update[key];
  }
  return picked;
}
