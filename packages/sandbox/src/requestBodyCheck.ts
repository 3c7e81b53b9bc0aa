import { loadOpenApiDocument } from '@cloud-api/spec';
import type { FaultId } from './faultCatalogue.js';
import type { SandboxBehaviour } from './sandboxBehaviour.js';
import { describeSchemaError, type OperationContract } from './specContract.js';

/** What a route runs on its parsed body: a detail for the 400, or undefined when it may go on. */
export type BodyCheck = (body: unknown) => string | undefined;

/**
 * The spec's request schema of the operation, unless one of the validation faults changed what
 * this route checks (as a route registered without its schema, or a hand-written partial schema,
 * would).
 */
export function bodyCheckFor(contract: OperationContract, fault: FaultId | undefined): BodyCheck | undefined {
  const validate = contract.validateBody;
  if (!validate) return undefined;
  const schemaCheck: BodyCheck = (body) =>
    validate(body) ? undefined : `Invalid request body: ${describeSchemaError(validate.errors, 'the body')}.`;
  if (fault === 'preflight-skips-validation' && contract.operationId === 'checkResourceEligibility')
    return () => undefined;
  if (fault === 'nat-rule-protocol-not-validated' && contract.operationId === 'updateNatPortForwardingRule') {
    // The partial-update schema was written by hand with `protocol: string`; the enum stayed
    // in the record's schema, so any text passes.
    return (body) =>
      isRecord(body) && typeof body.protocol === 'string'
        ? schemaCheck({ ...body, protocol: 'tcp' })
        : schemaCheck(body);
  }
  return schemaCheck;
}

/**
 * What the pipeline does with the parsed JSON before checking it. The correct sandbox passes it
 * on untouched; the body faults are the careless steps real servers put here.
 */
export function preparedBody(value: unknown, fault: FaultId | undefined): unknown {
  switch (fault) {
    case 'body-spread-into-object':
      // A "defensive copy" to drop the prototype: an array becomes {"0": ...}, a string its
      // characters by index, a number, boolean or null an empty object.
      return { ...(value as object) };
    case 'non-object-body-crashes':
      // An audit step reads who asked with the `in` operator, which throws a TypeError on a
      // string, number, boolean or null; the generic handler answers 500.
      if ('requested_by' in (value as object)) return value;
      return value;
    default:
      return value;
  }
}

/**
 * What the route validates and what its handler is given. The correct sandbox validates the body
 * as sent and hands that on. On the NAT rule update, the lenient variant converts what a lax
 * framework converts (numbers and booleans from text, enum values trimmed and lower-cased) and
 * stores the converted values; two faults validate such a copy but hand the raw body on, and one
 * converts text the way Python's str() does.
 */
export function bodyForRoute(
  operationId: string,
  body: unknown,
  behaviour: Pick<SandboxBehaviour, 'fault' | 'variant'>,
): { readonly validated: unknown; readonly handled: unknown } {
  if (operationId !== 'updateNatPortForwardingRule' || !isRecord(body))
    return { validated: body, handled: body };
  if (behaviour.variant === 'lenient-body-coercion') {
    const converted = laxlyConverted(body);
    return { validated: converted, handled: converted };
  }
  // pydantic v1's `str` converts what arrives with Python's str(): true is stored as "True".
  if (behaviour.fault === 'nat-rule-text-python-str') {
    const converted: Record<string, unknown> = { ...body };
    for (const field of NAT_RULE_TEXTS) {
      const value = converted[field];
      if (typeof value === 'boolean') converted[field] = value ? 'True' : 'False';
      else if (typeof value === 'number') converted[field] = String(value);
    }
    return { validated: converted, handled: converted };
  }
  // The validator looks members up by their exact names (`NOTE` is unknown, so ignored), while Go's
  // encoding/json finds a struct field for a member whatever its letter case: `NOTE` is note.
  if (behaviour.fault === 'nat-rule-member-names-case-insensitive') {
    const fields = natRuleUpdateFields();
    const folded = Object.fromEntries(
      Object.entries(body).map(([name, value]) => [
        fields.find((field) => field === name.toLowerCase()) ?? name,
        value,
      ]),
    );
    return { validated: body, handled: folded };
  }
  if (behaviour.fault === 'nat-rule-body-validated-copy')
    return { validated: laxlyConverted(body), handled: body };
  // isinstance(v, int) is true of a bool: the check sees 1 or 0, the store keeps the bool.
  if (behaviour.fault === 'nat-rule-port-bool-accepted')
    return {
      validated: Object.fromEntries(
        Object.entries(body).map(([name, value]) => [
          name,
          (NAT_RULE_INTEGERS as readonly string[]).includes(name) && typeof value === 'boolean'
            ? Number(value)
            : value,
        ]),
      ),
      handled: body,
    };
  // The validator reads a null member as "not sent" (an Optional field); the ORM writes the null.
  if (behaviour.fault === 'nat-rule-null-stored')
    return {
      validated: Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)),
      handled: body,
    };
  if (
    behaviour.fault === 'nat-rule-enabled-truthy-text' &&
    (body.enabled === 'true' || body.enabled === 'false')
  )
    return { validated: { ...body, enabled: true }, handled: body };
  return { validated: body, handled: body };
}

const NAT_RULE_INTEGERS = ['external_port', 'internal_port'] as const;
/** The NAT rule update's fields, as the spec's request schema names them. */
const natRuleUpdateFields = (): readonly string[] =>
  Object.keys(
    (
      loadOpenApiDocument() as unknown as {
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      }
    ).components.schemas.UpdateNatPortForwardingRuleRequest?.properties ?? {},
  );
const NAT_RULE_TEXTS = ['name', 'note'] as const;

/**
 * A lax framework's conversions: integers and booleans from their text, text from a number or a
 * boolean as JSON spells it, enum values trimmed and lower-cased.
 */
function laxlyConverted(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const field of NAT_RULE_TEXTS) {
    const value = out[field];
    if (typeof value === 'number' || typeof value === 'boolean') out[field] = String(value);
  }
  for (const field of NAT_RULE_INTEGERS) {
    const value = out[field];
    if (typeof value === 'string') {
      const digits = value.normalize('NFKC').trim();
      if (/^[0-9]+$/.test(digits)) out[field] = Number(digits);
    }
  }
  if (typeof out.enabled === 'string' && /^(true|false)$/i.test(out.enabled.trim()))
    out.enabled = out.enabled.trim().toLowerCase() === 'true';
  else if (out.enabled === 0 || out.enabled === 1) out.enabled = out.enabled === 1;
  if (typeof out.protocol === 'string') out.protocol = out.protocol.trim().toLowerCase();
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
