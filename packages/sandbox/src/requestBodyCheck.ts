import type { FaultId } from './faultCatalogue.js';
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
