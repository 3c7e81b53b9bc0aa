import { errorResult, jsonResult, type OperationResult } from '../operationResult.js';
import { storeRoundTrip } from '../storeRoundTrip.js';
import { acceptanceRecord } from './acceptanceRecord.js';
import type { OperationHandler, OperationRequest, SandboxServices } from './operationContext.js';

/**
 * The gateway makes its own billing decision before accepting a billable create, whatever the
 * caller's preflight said; the refusal's status is not shown by the document (403 by default).
 */
export const createCloudVm: OperationHandler = (request, services) => {
  const { behaviour, store } = services;
  if (behaviour.fault === 'billing-fail-open-when-busy') {
    // The gateway's billing client has one connection: a decision asked for while another is
    // pending times out at once, and the gateway forwards the create rather than refuse it.
    const busy = store.billingDecisionsInFlight > 0;
    store.billingDecisionsInFlight++;
    return storeRoundTrip()
      .then(() => (busy ? accept(request, services, store.nextId('vm')) : decided(request, services)))
      .finally(() => store.billingDecisionsInFlight--);
  }
  // The billing-skipped-for-known-key fault: the gateway remembers the keys of creates it
  // forwarded (key alone, no workspace) and forwards a "retry" of one without a decision.
  const key = request.idempotencyKey;
  if (behaviour.fault === 'billing-skipped-for-known-key' && key !== undefined) {
    if (store.forwardedCreateKeys.has(key)) return accept(request, services, store.nextId('vm'));
    const result = decided(request, services);
    if (!(result instanceof Promise) && result.status === 202) store.forwardedCreateKeys.add(key);
    return result;
  }
  return decided(request, services);
};

/** The create once the gateway has its billing decision: refused when it denies, else accepted. */
function decided(
  request: OperationRequest,
  services: SandboxServices,
): OperationResult | Promise<OperationResult> {
  const { behaviour, billing, store } = services;
  // The gateway-billing-with-caller-token fault: billing is asked with the caller's own token,
  // refuses one without billing.read, and the gateway answers as when no decision can be made.
  if (behaviour.fault === 'gateway-billing-with-caller-token' && !request.caller.hasScope('billing.read'))
    return errorResult(
      503,
      'The billing decision could not be made, so the create was refused; retry later.',
    );
  // The gateway-trusts-body-decision fault: the decision a caller passes along is taken as made.
  const passedAlong =
    (behaviour.fault === 'gateway-trusts-body-decision' &&
      (request.body as { allowed?: unknown } | undefined)?.allowed === true) ||
    // The gateway-trusts-claimed-billing-state fault: the create model keeps the decision the web
    // console fills in, and the gateway skips its own call when it is there.
    (behaviour.fault === 'gateway-trusts-claimed-billing-state' &&
      (request.body as { billing_decision?: { allowed?: unknown } } | undefined)?.billing_decision
        ?.allowed === true) ||
    // The gateway-unpriced-plan-passes fault: billing answers an error for a plan missing from
    // its price list, and the gateway refuses only on `allowed: false`.
    (behaviour.fault === 'gateway-unpriced-plan-passes' &&
      (request.body as { plan_id?: unknown } | undefined)?.plan_id === 'plan-std-4c-8g');
  if (
    !passedAlong &&
    !billing.allows(request.workspaceId, undefined) &&
    behaviour.fault !== 'gateway-ignores-billing-decision'
  ) {
    return errorResult(
      behaviour.billingRefusalStatus,
      `Billing eligibility denied: workspace ${request.workspaceId} may not create billable resources, so the create was refused and no operation was accepted.`,
    );
  }
  if (behaviour.fault === 'vm-id-read-then-write') {
    // The id is computed from a read; the row is written after the store round trip.
    const read = store.readSequence();
    return storeRoundTrip().then(() => accept(request, services, store.idFromStaleRead('vm', read)));
  }
  return accept(request, services, store.nextId('vm'));
}

/** Stores the VM and its create operation, and answers the acceptance record. */
function accept(request: OperationRequest, services: SandboxServices, vmId: string): OperationResult {
  const { behaviour, store } = services;
  if (
    behaviour.fault === 'operation-id-per-workspace-unique-column' &&
    store.operations.has(store.peekIdIn('op', request.workspaceId))
  )
    // The insert breaks the unique constraint and is rolled back: the sequence stays where it was.
    return errorResult(500, 'duplicate key value violates unique constraint "operations_pkey"');
  store.cloudVms.set(vmId, {
    vmId,
    workspaceId: request.workspaceId,
    request: request.body,
    state: 'creating',
  });
  const record = acceptanceRecord(services, vmId, request.workspaceId);
  store.operations.set(record.operation_id, {
    record,
    workspaceId: request.workspaceId,
    kind: 'create-cloud-vm',
  });
  return jsonResult(behaviour.fault === 'create-answers-201' ? 201 : 202, record);
}
