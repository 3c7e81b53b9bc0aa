import { randomUUID } from 'node:crypto';
import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { defaultBody, operationRequest } from '../generate/operationRequest.js';
import {
  allowsWorkspace,
  broadest,
  hasScope,
  identitiesWith,
  identityWith,
  type NamedIdentity,
  namedIdentities,
} from '../session/identities.js';
import type { Session } from '../session/session.js';
import { type Exchange, headerValue } from '../transport/exchange.js';
import { acceptanceIds, describeAcceptance } from './acceptanceRecord.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { consumableTargets, expectStillThere, judgedOnce } from './consumedAfterRefusal.js';
import { listContent, workspaceIdSent } from './exchangeReading.js';
import {
  expectNatRuleUnchanged,
  keepingNatRule,
  readNatRule,
  refusedUpdateOptions,
} from './natRuleReader.js';
import { expectStatus, is2xx, is4xx, RuleViolation } from './ruleViolation.js';
import { CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

/** One resource of the primary workspace, and how to ask for it through another workspace. */
interface CrossWorkspaceCase {
  readonly op: OperationEntry;
  readonly what: string;
  readonly pathIds: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Operations that change state are sent only when the profile allows mutations. */
  readonly mutating: boolean;
}

function crossWorkspaceCases(session: Session): CrossWorkspaceCase[] {
  const { plan } = session;
  const cases: CrossWorkspaceCase[] = [];
  if (plan.restore)
    cases.push({
      op: session.operation('getCloudVmSnapshotRestore'),
      what: `restore ${plan.restore}`,
      pathIds: { restore_id: plan.restore },
      mutating: false,
    });
  if (plan.natRule)
    cases.push({
      op: session.operation('updateNatPortForwardingRule'),
      what: `NAT rule ${plan.natRule.ruleId}`,
      pathIds: {
        vpc_id: plan.natRule.vpcId,
        nat_gateway_id: plan.natRule.natGatewayId,
        port_forwarding_rule_id: plan.natRule.ruleId,
      },
      body: JSON.stringify({ note: `conformance-isolation-${randomUUID().slice(0, 8)}` }),
      mutating: true,
    });
  if (plan.gpuVmProbe)
    cases.push({
      op: session.operation('enableGpuVmBackups'),
      what: `GPU VM ${plan.gpuVmProbe} (enable backups)`,
      pathIds: { vm_id: plan.gpuVmProbe },
      body: '{}',
      mutating: true,
    });
  if (plan.deleteProbe)
    cases.push({
      op: session.operation('deleteGpuVm'),
      what: `GPU VM ${plan.deleteProbe} (delete)`,
      pathIds: { vm_id: plan.deleteProbe },
      mutating: true,
    });
  if (plan.releaseProbe)
    cases.push({
      op: session.operation('releaseReservedIp'),
      what: `reserved IP ${plan.releaseProbe}`,
      pathIds: { reserved_ip_id: plan.releaseProbe },
      mutating: true,
    });
  // A handler that takes the body's workspace_id over the query's ({...query, ...body}, a
  // body-bound model) reaches the resource in the workspace the body names.
  const { primary } = session.profile.workspaces;
  const withMember = cases
    .filter(
      (c) => c.op.operationId === 'updateNatPortForwardingRule' || c.op.operationId === 'enableGpuVmBackups',
    )
    .map((c) => ({
      ...c,
      what: `${c.what} (with "workspace_id": "${primary}" in the body)`,
      body: JSON.stringify({ ...(JSON.parse(c.body ?? '{}') as object), workspace_id: primary }),
    }));
  return [...cases, ...withMember].filter((c) => session.profile.mutations === true || !c.mutating);
}

/** Who asks for a primary-workspace resource through the secondary workspace. */
interface Asker {
  readonly identity: NamedIdentity;
  /** Whether its policy also covers the primary workspace, where the resource lives. */
  readonly mayAccessPrimary: boolean;
}

/**
 * The identities holding `scope` on the secondary workspace: the broadest that may also access the
 * primary, and the broadest that may not, when the profile has them.
 */
function askersThroughSecondary(session: Session, scope: string): Asker[] {
  const { primary, secondary } = session.profile.workspaces;
  const holders = identitiesWith(session.profile, scope, secondary);
  const both = broadest(holders.filter((id) => allowsWorkspace(id, primary)));
  const secondaryOnly = broadest(holders.filter((id) => !allowsWorkspace(id, primary)));
  return [
    ...(both ? [{ identity: both, mayAccessPrimary: true }] : []),
    ...(secondaryOnly ? [{ identity: secondaryOnly, mayAccessPrimary: false }] : []),
  ];
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'ISO-1',
    "never returns, changes, deletes or releases a primary workspace's resource asked through another workspace",
    async (t) => {
      const session = t.session;
      const { secondary } = session.profile.workspaces;
      const cases = crossWorkspaceCases(session);
      if (cases.length === 0)
        return t.skip(
          'profile lists no resource the run may ask for (resources.restoreIds, or mutations with NAT rules, GPU VMs or reserved IPs)',
        );
      const natBefore = cases.some((c) => c.op.operationId === 'updateNatPortForwardingRule')
        ? await readNatRule(session)
        : undefined;
      const asked = cases.flatMap((c) =>
        askersThroughSecondary(session, c.op.scope).map((asker) => ({ ...c, asker })),
      );
      if (asked.length === 0)
        return t.skip(`no identity holds the scopes of these operations on workspace ${secondary}`);
      await keepingNatRule(t, natBefore, async () => {
        await t.check(
          fc.constantFrom(...asked),
          async (c): Promise<CaseVerdict> => {
            const { identity, mayAccessPrimary } = c.asker;
            const isRestore = c.op.operationId === 'getCloudVmSnapshotRestore';
            const ownRead = () =>
              session.http.send(operationRequest(c.op, session, 'positive', { pathIds: c.pathIds }));
            // Served in its own workspace before: a 404 there after the ask below is the ask's doing.
            const before = isRestore ? await ownRead() : undefined;
            // Served there earlier in the run, and no operation removes a restore: a read elsewhere
            // (another workspace's 404 cached by id alone) has hidden it from its own workspace.
            if (
              before?.response.status === 404 &&
              session.servedRestores.servedEarlier(
                c.pathIds.restore_id ?? '',
                session.profile.workspaces.primary,
              )
            )
              throw new RuleViolation(
                `${c.what} was served through its own workspace ${session.profile.workspaces.primary} earlier in the run and now answers 404 there; the document has no operation that removes a restore, so a not-found answer from a read elsewhere (another workspace) is being kept without its workspace`,
                before,
              );
            if (before && !is2xx(before.response.status))
              return notApplicable(
                `${c.what} answered ${before.response.status} through its own workspace, so a refusal elsewhere shows no isolation`,
              );
            const exchange = await session.http.send(
              operationRequest(c.op, session, 'probe', {
                token: identity.token,
                workspaceId: secondary,
                pathIds: c.pathIds,
                ...(c.body !== undefined ? { body: c.body } : {}),
              }),
            );
            if (is2xx(exchange.response.status)) {
              if (c.op.operationId === 'enableGpuVmBackups')
                t.recordCreated(
                  'backup policy',
                  c.pathIds.vm_id as string,
                  'enabled through another workspace',
                );
              throw new RuleViolation(
                `${c.what} of workspace ${session.profile.workspaces.primary} was ${exchange.request.method === 'GET' ? 'returned' : 'acted on'} through workspace ${secondary} (${exchange.response.status}); workspaces isolate resources`,
                exchange,
              );
            }
            // No status is shown for a resource asked through another workspace: 404 (not found
            // there), or 403 for a token that may not access the workspace the resource lives in.
            // A token that may access both lacks nothing a 403 names.
            if (mayAccessPrimary && exchange.response.status === 403)
              throw new RuleViolation(
                `${c.what} of workspace ${session.profile.workspaces.primary}, asked through workspace ${secondary} by identity "${identity.name}" (it holds ${c.op.scope} and may access both workspaces), was refused with 403: 403 means the token lacks the required scope or may not access the workspace, and neither is so; a resource the request's workspace does not hold is not found there (404)`,
                exchange,
              );
            // A conflict "with the current resource state" is an answer about the resource: it was
            // found outside the request's workspace (the key is fresh, so it is no key conflict).
            if (exchange.response.status === 409)
              throw new RuleViolation(
                `${c.what} of workspace ${session.profile.workspaces.primary}, asked through workspace ${secondary}, was answered 409 Conflict: a conflict with the resource's current state is an answer about a resource workspace ${secondary} does not hold, so the service looked it up outside the request's workspace (workspaces isolate resources); not found there is 404, or 403 for a token that may not access workspace ${session.profile.workspaces.primary}`,
                exchange,
              );
            expectStatus(
              exchange,
              is4xx,
              `a 4xx (${mayAccessPrimary ? '404' : '403 or 404'}): ${c.what} is not in workspace ${secondary}`,
            );
            if (isRestore) {
              const own = await ownRead();
              // A not-found answer cached by id alone, without the workspace, now hides the restore
              // from its own workspace.
              if (own.response.status === 404)
                throw new RuleViolation(
                  `${c.what} was served through its own workspace ${session.profile.workspaces.primary}, then answered 404 there right after it was asked through workspace ${secondary}: the other workspace's not-found answer is kept without its workspace`,
                  own,
                );
              if (!is2xx(own.response.status))
                return notApplicable(
                  `${c.what} answered ${own.response.status} through its own workspace after the ask, so nothing is shown either way`,
                );
            }
            if (c.op.operationId === 'updateNatPortForwardingRule') {
              if (!natBefore) return notApplicable(`${c.what} could not be read through its own workspace`);
              const unattributable = await expectNatRuleUnchanged(session, natBefore, exchange, c.what);
              if (unattributable) return unattributable;
            }
            return observed;
          },
          refusedUpdateOptions(session, natBefore, asked),
        );
      });
    },
  ),
);

checks.push(
  defineCheck(
    'ISO-1',
    'a delete or release refused through another workspace leaves the resource to its own workspace',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const { primary, secondary } = session.profile.workspaces;
      const { deleteIsolation, releaseIsolation } = session.plan;
      const cases = consumableTargets(session, deleteIsolation, releaseIsolation).flatMap((c) => {
        const [asker] = askersThroughSecondary(session, c.op.scope);
        return asker ? [{ ...c, asker }] : [];
      });
      if (cases.length === 0)
        return t.skip(
          `the profile's resources hold no fourth resources.deletableGpuVmIds entry and no third resources.releasableReservedIpIds entry, or no identity holds their scopes on workspace ${secondary}`,
        );
      const judgeOnce = judgedOnce(async (c: (typeof cases)[number]): Promise<CaseVerdict> => {
        const { identity } = c.asker;
        const asked = await session.http.send(
          operationRequest(c.op, session, 'probe', {
            token: identity.token,
            workspaceId: secondary,
            pathIds: c.pathIds,
          }),
        );
        if (is2xx(asked.response.status))
          throw new RuleViolation(
            `${c.what} of workspace ${primary} was acted on through workspace ${secondary} (${asked.response.status}); workspaces isolate resources`,
            asked,
          );
        if (!is4xx(asked.response.status))
          return notApplicable(
            `asked through workspace ${secondary}, ${c.what} answered ${asked.response.status}`,
          );
        return expectStillThere(
          session,
          c,
          `the ${asked.request.method} of it through workspace ${secondary} was refused (${asked.response.status})`,
          '`DELETE … RETURNING`, then the workspace check',
        );
      });
      await t.check(fc.constantFrom(...cases), judgeOnce, { examples: cases, exhaustive: true });
    },
  ),
);

checks.push(
  defineCheck(
    'ISO-1',
    "never answers a key reused in another workspace with the first workspace's operation",
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const { primary, secondary } = session.profile.workspaces;
      const op = session.operation('createCloudVm');
      const elsewhere = identityWith(session.profile, op.scope, secondary);
      if (!elsewhere) return t.skip(`no identity holds ${op.scope} on workspace ${secondary}`);
      await t.check(
        fc.constant('the same key and body in a second workspace'),
        async (): Promise<CaseVerdict> => {
          const key = randomUUID();
          const body = JSON.stringify(defaultBody(op, session));
          const first = await session.http.send(
            operationRequest(op, session, 'probe', { idempotencyKey: key, body }),
          );
          const own = acceptanceIds(first);
          if (!own)
            return notApplicable(
              `the create in workspace ${primary} answered ${first.response.status} without an acceptance record`,
            );
          t.recordCreated('cloud VM', own.vmId, CLOUD_VM_NOT_CLEANED);
          const reused = await session.http.send(
            operationRequest(op, session, 'probe', {
              token: elsewhere.token,
              workspaceId: secondary,
              idempotencyKey: key,
              body,
            }),
          );
          const theirs = acceptanceIds(reused);
          if (theirs && (theirs.operationId === own.operationId || theirs.vmId === own.vmId))
            throw new RuleViolation(
              `X-Idempotency-Key ${key}, used for a create in workspace ${primary}, was sent again with the same body in workspace ${secondary} and answered with workspace ${primary}'s ${describeAcceptance(own)}: one workspace's answer replayed in another. A key makes retrying the same request safe; a create naming another workspace_id is another request, scoped to that workspace ("Workspaces isolate resources"), so it is carried out there or refused (a 4xx such as 409 for a key already used), never answered with another workspace's operation`,
              reused,
            );
          if (theirs) t.recordCreated('cloud VM', theirs.vmId, CLOUD_VM_NOT_CLEANED);
          await expectPollIsolated(session, first, own.operationId);
          // A new operation there, or a refusal (the key's scope is not shown): either keeps the
          // workspaces apart. A 5xx or a 2xx naming nothing shows neither.
          const status = reused.response.status;
          if (!theirs && !is4xx(status))
            return notApplicable(
              `the reuse in workspace ${secondary} answered ${status} without an acceptance record`,
            );
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'ISO-1',
    'never lets a workspace_id member of the body move a request to another workspace',
    async (t) => {
      const session = t.session;
      const { primary, billingDenied } = session.profile.workspaces;
      if (!billingDenied) return t.skip('profile has no workspaces.billingDenied');
      const op = session.operation('checkResourceEligibility');
      // A handler reading merged parameters ({...query, ...body}) takes the body's workspace,
      // after the workspace policy checked the query's. The preflight shows which workspace
      // answered: the denied one says no where the primary says yes.
      await t.check(
        fc.constantFrom(billingDenied),
        async (other): Promise<CaseVerdict> => {
          const plain = operationRequest(op, session, 'positive');
          const own = await session.http.send(plain);
          const body = { ...(JSON.parse(plain.body ?? '{}') as object), workspace_id: other };
          const moved = await session.http.send({ ...plain, body: JSON.stringify(body) });
          const decision = (exchange: Exchange) =>
            (exchange.response.json as { allowed?: unknown } | null)?.allowed;
          if (!is2xx(own.response.status) || decision(own) !== true)
            return notApplicable(
              `the preflight in workspace ${primary} answered ${own.response.status} ${JSON.stringify(decision(own))}, not an allowing decision to compare with`,
            );
          // Refusing the member it does not know is as good as ignoring it.
          if (!is2xx(moved.response.status)) return observed;
          if (decision(moved) !== true)
            throw new RuleViolation(
              `the preflight with workspace_id=${primary} in the query and "workspace_id": "${other}" in the body answered ${JSON.stringify(decision(moved))}, where workspace ${primary} is allowed: the body's member, not the query's parameter, chose the workspace ("Every request carries a \`workspace_id\` query parameter that scopes it")`,
              moved,
            );
          return observed;
        },
        { examples: [billingDenied], maxRuns: 1 },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'ISO-1',
    "never lets a workspace_id member of a create's body take it out of a workspace whose billing decision denies it",
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const { primary, billingDenied } = session.profile.workspaces;
      if (!billingDenied) return t.skip('profile has no workspaces.billingDenied');
      const identity = identitiesWith(session.profile, 'vm.write', billingDenied)[0];
      if (!identity) return t.skip(`profile has no identity holding vm.write on workspace ${billingDenied}`);
      const op = session.operation('createCloudVm');
      // A handler that binds the body over the query after the policy check creates where the body
      // says: the gateway's decision is then the allowed workspace's, and the create goes through.
      await t.check(
        fc.constant(primary),
        async (member): Promise<CaseVerdict> => {
          const created = (exchange: Exchange) => {
            const ids = acceptanceIds(exchange);
            if (ids) t.recordCreated('cloud VM', ids.vmId, CLOUD_VM_NOT_CLEANED);
          };
          const plain = operationRequest(op, session, 'probe', {
            token: identity.token,
            workspaceId: billingDenied,
          });
          const own = await session.http.send(plain);
          if (is2xx(own.response.status)) {
            created(own);
            return notApplicable(
              `a create in workspace ${billingDenied}, whose billing decision denies it, was accepted (${own.response.status}) without a body member too: BILL-6 judges that`,
            );
          }
          const body = { ...(JSON.parse(plain.body ?? '{}') as object), workspace_id: member };
          const moved = await session.http.send(
            operationRequest(op, session, 'probe', {
              token: identity.token,
              workspaceId: billingDenied,
              body: JSON.stringify(body),
            }),
          );
          // Refused (the decision, or a member the body does not list): as good as ignored.
          if (!is2xx(moved.response.status)) return observed;
          created(moved);
          throw new RuleViolation(
            `a create with workspace_id=${billingDenied} in the query, a workspace whose billing decision denies it (the same create without the member was refused ${own.response.status}), and "workspace_id": "${member}" in the body was accepted (${moved.response.status}): the body's member, not the query's parameter, chose the workspace ("Every request carries a \`workspace_id\` query parameter that scopes it")`,
            moved,
          );
        },
        { maxRuns: 1 },
      );
    },
  ),
);

/**
 * The poll path is not shown, but a create that answers a Location names one: read there through
 * the primary workspace, the operation is read through the secondary one by an identity allowed in
 * both, and must not be served there. Without a Location, or when the primary read does not serve
 * the operation, this shows nothing and sends nothing more.
 */
async function expectPollIsolated(session: Session, created: Exchange, operationId: string): Promise<void> {
  const location = headerValue(created.response.headers, 'location');
  if (!location) return;
  const base = new URL(session.profile.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  let target: URL;
  try {
    target = new URL(location, created.url);
  } catch {
    return;
  }
  if (target.origin !== base.origin || !target.pathname.startsWith(`${basePath}/`)) return;
  const { primary, secondary } = session.profile.workspaces;
  const poll = (workspace: string, token: string) =>
    session.http.send({
      method: 'GET',
      path: target.pathname.slice(basePath.length),
      query: [
        ...[...target.searchParams].filter(([name]) => name !== 'workspace_id'),
        ['workspace_id', workspace],
      ],
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
  // The poll's scope is not shown either: the broadest identity that may use both workspaces.
  const reader = broadest(
    namedIdentities(session.profile).filter(
      (identity) => allowsWorkspace(identity, primary) && allowsWorkspace(identity, secondary),
    ),
  );
  if (!reader) return;
  const own = await poll(primary, reader.token);
  const names = (exchange: Exchange) =>
    (exchange.response.json as { operation_id?: unknown } | null)?.operation_id === operationId;
  if (!is2xx(own.response.status) || !names(own)) return;
  const elsewhere = await poll(secondary, reader.token);
  if (is2xx(elsewhere.response.status) && names(elsewhere))
    throw new RuleViolation(
      `operation ${operationId} of workspace ${primary}, read where its create's Location points (${target.pathname}), was served through workspace ${secondary} too: workspaces isolate resources`,
      elsewhere,
    );
}

/** Identities that may read both workspaces' lists, broadest first, at most three (different tokens). */
function listReaders(session: Session, scope: string): NamedIdentity[] {
  const { primary, secondary } = session.profile.workspaces;
  return namedIdentities(session.profile)
    .filter((id) => hasScope(id, scope) && allowsWorkspace(id, primary) && allowsWorkspace(id, secondary))
    .sort((a, b) => Number(b.scopes === 'all') - Number(a.scopes === 'all'))
    .slice(0, 3);
}

/** The workspace a list was asked through. */
function workspaceOf(exchange: Exchange): string {
  return workspaceIdSent(exchange) ?? '';
}

/** What a list answer holds, whatever the order of its items and keys, `moving` members left out; else its raw text. */
function answerContent(exchange: Exchange, moving: ReadonlySet<string> = new Set()): string {
  const { json } = exchange.response;
  if (!Array.isArray(json)) return exchange.response.bodyText;
  return listContent(
    json.map((item) =>
      item && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).filter(([member]) => !moving.has(member)))
        : item,
    ),
  );
}

/**
 * Members of a list's items whose values, taken over all items, differ between two reads of the
 * same list of the same length: they change on their own between reads. Reads of another length
 * (a bucket created meanwhile) show nothing of that.
 */
function movingMembers(reads: readonly Exchange[]): Set<string> {
  const lists = reads
    .map((read) => read.response.json)
    .filter((json): json is Record<string, unknown>[] => Array.isArray(json));
  const valuesOf = (list: readonly Record<string, unknown>[], member: string): string =>
    list
      .map((item) => JSON.stringify(item && typeof item === 'object' ? item[member] : undefined) ?? '')
      .sort()
      .join('\u0000');
  const moving = new Set<string>();
  for (const [i, one] of lists.entries())
    for (const other of lists.slice(i + 1)) {
      if (one.length !== other.length) continue;
      const members = new Set(
        [...one, ...other].flatMap((item) => (item && typeof item === 'object' ? Object.keys(item) : [])),
      );
      for (const member of members) if (valuesOf(one, member) !== valuesOf(other, member)) moving.add(member);
    }
  return moving;
}

/** The first item of a list answer that names a workspace other than the one asked for. */
function foreignItem(exchange: Exchange, workspace: string): unknown {
  const list = exchange.response.json;
  if (!Array.isArray(list)) return undefined;
  return list.find(
    (item) =>
      typeof item === 'object' &&
      item !== null &&
      'workspace_id' in item &&
      String((item as { workspace_id: unknown }).workspace_id) !== workspace,
  );
}

checks.push(
  defineCheck(
    'ISO-1',
    "answers each workspace's bucket list with that workspace's own, whatever was read before",
    async (t) => {
      const session = t.session;
      const op = session.operation('listBuckets');
      const { primary, secondary } = session.profile.workspaces;
      const readers = listReaders(session, op.scope);
      if (readers.length === 0)
        return t.skip(`no identity holds ${op.scope} on both workspaces ${primary} and ${secondary}`);
      const read = (workspace: string, token: string) =>
        session.http.send(operationRequest(op, session, 'positive', { workspaceId: workspace, token }));
      // Each list read right after the other's, in both orders, by each reader; and both at once,
      // so a cache keyed without the workspace (per route, per token) serves one for the other.
      const answers = new Map<string, Exchange[]>([
        [primary, []],
        [secondary, []],
      ]);
      for (const reader of readers)
        for (const order of [
          [primary, secondary],
          [secondary, primary],
        ])
          for (const workspace of order) answers.get(workspace)?.push(await read(workspace, reader.token));
      const first = readers[0] as NamedIdentity;
      const together = await Promise.all([read(primary, first.token), read(secondary, first.token)]);
      answers.get(primary)?.push(together[0]);
      answers.get(secondary)?.push(together[1]);
      const bodies = (workspace: string, moving?: ReadonlySet<string>) =>
        new Map((answers.get(workspace) ?? []).map((e) => [answerContent(e, moving), e] as const));
      const ofPrimary = bodies(primary);
      const ofSecondary = bodies(secondary);
      const differ = session.profile.resources?.bucketListsDiffer === true;
      const all = [...(answers.get(primary) ?? []), ...(answers.get(secondary) ?? [])];
      const foreign = all
        .map((exchange) => ({ exchange, item: foreignItem(exchange, workspaceOf(exchange)) }))
        .find((found) => found.item !== undefined);
      if (
        !differ &&
        !foreign &&
        ofPrimary.size === 1 &&
        ofSecondary.size === 1 &&
        ofPrimary.has([...ofSecondary.keys()][0] as string)
      )
        return t.skip(
          `workspaces ${primary} and ${secondary} answered the same bucket list in every read, so a list served from the other workspace cannot be told from their own; give them different buckets and set resources.bucketListsDiffer: true`,
        );
      await t.check(
        fc.constant(`both lists read ${all.length} times, in both orders, by ${readers.length} identities`),
        async (): Promise<CaseVerdict> => {
          const refused = all.find((e) => !is2xx(e.response.status));
          if (refused)
            return notApplicable(
              `a bucket list read by an identity holding ${op.scope} on both workspaces answered ${refused.response.status} (SCOPE-2 and POLICY-2 judge that)`,
            );
          if (foreign)
            throw new RuleViolation(
              `the bucket list of workspace ${workspaceOf(foreign.exchange)} holds an item of workspace ${JSON.stringify((foreign.item as { workspace_id: unknown }).workspace_id)}: workspaces isolate resources`,
              foreign.exchange,
            );
          const shared = [...ofSecondary.keys()].find((body) => ofPrimary.has(body));
          if (shared !== undefined) {
            const served = ofSecondary.get(shared) as Exchange;
            if (differ)
              throw new RuleViolation(
                `workspace ${secondary} was answered exactly the bucket list of workspace ${primary}, though the profile says they hold different buckets (resources.bucketListsDiffer): one workspace's list served for another`,
                served,
              );
            throw new RuleViolation(
              `the bucket lists changed with what was read before: workspace ${secondary} was answered exactly workspace ${primary}'s list in one read and another list in another (${ofPrimary.size} distinct answers for ${primary}, ${ofSecondary.size} for ${secondary}): a list cached without its workspace`,
              served,
            );
          }
          // Lists that move between reads may still each be one list once the members that move on
          // their own (a signed URL, a read time) are left out: then two distinct lists are evidence.
          // Leaving members out only ever turns this no-verdict into evidence, never a failure away.
          const moving = new Set([...answers.values()].flatMap((reads) => [...movingMembers(reads)]));
          // An item with nothing left but what moves tells no list from another.
          const leftSomething = all.every((e) =>
            (Array.isArray(e.response.json) ? e.response.json : []).every(
              (item: unknown) =>
                !item || typeof item !== 'object' || Object.keys(item).some((member) => !moving.has(member)),
            ),
          );
          const steadyPrimary = bodies(primary, moving);
          const steadySecondary = bodies(secondary, moving);
          const steadyShared = [...steadySecondary.keys()].find((body) => steadyPrimary.has(body));
          if (differ && leftSomething && steadyShared !== undefined && moving.size > 0)
            throw new RuleViolation(
              `workspace ${secondary} was answered the bucket list of workspace ${primary} but for ${[...moving].join(', ')} (which changed on every read), though the profile says they hold different buckets (resources.bucketListsDiffer): one workspace's list served for another`,
              steadySecondary.get(steadyShared) as Exchange,
            );
          if (
            (ofPrimary.size > 1 || ofSecondary.size > 1) &&
            leftSomething &&
            steadyPrimary.size === 1 &&
            steadySecondary.size === 1 &&
            !steadyPrimary.has([...steadySecondary.keys()][0] as string)
          )
            return observed;
          if (ofPrimary.size > 1 || ofSecondary.size > 1)
            return notApplicable(
              `a bucket list was answered differently between reads (${ofPrimary.size} distinct answers for workspace ${primary}, ${ofSecondary.size} for ${secondary}: buckets created or deleted meanwhile, or a field that changes on every read, such as a timestamp), so the reads cannot be matched to a workspace`,
            );
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

/** The isolation family's checks, in the order they run. */
export const isolationChecks: readonly Check[] = checks;
