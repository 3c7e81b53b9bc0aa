import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { createBalancedInstances } from './balancedInstances.js';
import { type FaultId, isFaultId } from './faultCatalogue.js';
import { requestFingerprint } from './idempotency.js';
import { type JsonBodyLimits, readJsonBody } from './jsonBodyReader.js';
import { createKeyedExecution } from './keyedExecution.js';
import { errorResult, jsonResult, type OperationResult, type PendingResult } from './operationResult.js';
import type { OperationHandler, SandboxServices } from './operations/operationContext.js';
import { type ParsedQuery, parseQueryString } from './queryString.js';
import { type BodyCheck, bodyCheckFor, bodyForRoute, preparedBody } from './requestBodyCheck.js';
import type { ResponseWriter } from './responseWriter.js';
import { RouteTable } from './routeTable.js';
import type { OperationContract, ParameterContract } from './specContract.js';
import type { Caller, TokenAuthenticator } from './tokenAuthenticator.js';
import type { WorkspaceGate } from './workspaceGate.js';

/** One operation as the pipeline runs it, with its checks resolved once at start-up. */
interface Route {
  readonly contract: OperationContract;
  readonly handler: OperationHandler;
  /** Scopes the caller must hold (the spec's one scope, unless a fault changed it). */
  readonly requiredScopes: readonly string[];
  readonly workspaceParameter: ParameterContract;
  readonly idempotencyParameter: ParameterContract | undefined;
  readonly pathParameters: readonly ParameterContract[];
  /** The body check (the spec's request schema, unless a fault changed it); none without a body. */
  readonly checkBody: BodyCheck | undefined;
}

export interface PipelineDependencies {
  readonly contract: { readonly operations: readonly OperationContract[] };
  readonly handlers: Readonly<Record<string, OperationHandler>>;
  readonly services: SandboxServices;
  readonly authenticator: TokenAuthenticator;
  readonly workspaces: WorkspaceGate;
  readonly writer: ResponseWriter;
  readonly bodyLimits: JsonBodyLimits;
  /** Called with unexpected errors (bugs); never with request data. */
  readonly onInternalError: (error: unknown) => void;
}

export const API_BASE_PATH = '/v1';
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Who the handler runs as behind the guard-answers-after-dispatch fault's refusal. */
const TRUSTED_CALLER: Caller = {
  identityName: 'dispatched-before-the-guard',
  policy: 'entire-organization',
  hasScope: () => true,
  policyAllows: () => true,
};

/** How long the workspace-id-pollution-behind-list-cache fault's gateway keeps a list. */
const GATEWAY_LIST_CACHE_MS = 60_000;

/** The sandbox's `node:http` request listener. */
export function createRequestListener(
  deps: PipelineDependencies,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { services, authenticator, workspaces, writer } = deps;
  const { behaviour, store } = services;
  const routes = buildRouteTable(deps);
  const fixedSegments = new Set(
    deps.contract.operations.flatMap((op) => op.path.split('/').filter((s) => s !== '' && !s.includes('{'))),
  );
  // The path as a lenient router reads it, under the faults whose guard read it as it came.
  const routedPath = (pathname: string): string => {
    if (behaviour.fault === 'scope-skipped-on-path-case')
      // A case-insensitive router: a fixed segment in any letter case is that segment.
      return pathname
        .split('/')
        .map((segment) => (fixedSegments.has(segment.toLowerCase()) ? segment.toLowerCase() : segment))
        .join('/');
    if (behaviour.fault === 'scope-decided-on-raw-prefix') return posix.normalize(pathname);
    return pathname;
  };
  const parametersFirst = behaviour.variant === 'parameters-checked-before-auth';
  const pollutedByLastValue =
    behaviour.fault === 'workspace-id-policy-first-handler-last' ||
    behaviour.fault === 'workspace-id-pollution-behind-list-cache';
  const keyed = createKeyedExecution(store, behaviour);
  const instanceOf = createBalancedInstances();

  const fail = (res: ServerResponse, error: unknown) => {
    deps.onInternalError(error);
    writer.sendError(res, 500, 'Internal sandbox error: this is a bug in the sandbox, not in your request.');
  };

  /** Writes the answer, now or once the store round trip of a concurrency fault or variant is over. */
  const deliver = (res: ServerResponse, result: PendingResult): void => {
    if (result instanceof Promise)
      result.then(
        (answer) => writer.send(res, answer),
        (error: unknown) => fail(res, error),
      );
    else writer.send(res, result);
  };

  interface Checked {
    readonly workspaceId: string;
    readonly idempotencyKey: string | undefined;
  }

  /** workspace_id form, X-Idempotency-Key and path parameters, from the spec's parameter schemas. */
  const checkParameters = (
    route: Route,
    query: ParsedQuery & { ok: true },
    req: IncomingMessage,
    pathParameters: Readonly<Record<string, string>>,
  ): Checked | OperationResult => {
    const workspaceName = route.workspaceParameter.name;
    const form = workspaces.checkForm(
      route.workspaceParameter,
      query.values.get(workspaceName),
      // workspace_id given twice: refused, unless the first value is read for everything (a
      // variant), or the policy middleware reads the first and the handler the last (a fault).
      !pollutedByLastValue &&
        behaviour.variant !== 'repeated-workspace-id-first-wins' &&
        query.duplicated.has(workspaceName),
    );
    if (!form.ok) return errorResult(form.status, form.detail);
    for (const parameter of route.pathParameters) {
      // PostgreSQL refuses text holding 0x00; unvalidated, the driver's error becomes a 500.
      if (
        behaviour.fault === 'path-id-nul-database-error' &&
        pathParameters[parameter.name]?.includes('\u0000')
      )
        return errorResult(500, 'Internal Server Error: invalid byte sequence for encoding "UTF8": 0x00');
      if (!parameter.validate(pathParameters[parameter.name])) {
        return errorResult(400, `Invalid path parameter ${parameter.name}.`);
      }
    }
    let idempotencyKey: string | undefined;
    const keyParameter = route.idempotencyParameter;
    if (keyParameter) {
      const raw = req.headers[keyParameter.key];
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      if (value === undefined) {
        if (behaviour.fault === 'idempotency-key-generated-when-missing') {
          // "Every request gets a key": a generated one makes the retry a new request.
          idempotencyKey = randomUUID();
        } else if (behaviour.fault !== 'idempotency-key-optional') {
          return errorResult(
            400,
            `Missing ${keyParameter.name} header: this operation requires one. Send a new UUID per request and the same one when retrying it.`,
          );
        }
      } else if (
        value.trim() === '' ||
        value.length > IDEMPOTENCY_KEY_MAX_LENGTH ||
        !keyParameter.validate(value)
      ) {
        return errorResult(
          400,
          `Invalid ${keyParameter.name} header: send a non-empty string of at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, e.g. a UUID.`,
        );
      } else {
        idempotencyKey = value;
      }
    }
    return { workspaceId: form.workspaceId, idempotencyKey };
  };

  const authorise = (route: Route, req: IncomingMessage): Caller | OperationResult => {
    const outcome = authenticator.authenticate(req.headers.authorization, {
      safeMethod: req.method === 'GET',
      instance: instanceOf(req),
      cookie: req.headers.cookie,
    });
    if (!outcome.ok)
      return outcome.status === 403
        ? errorResult(403, outcome.detail)
        : errorResult(401, outcome.detail, { 'www-authenticate': 'Bearer' });
    // The scope-skipped-on-trailing-slash fault: the scope middleware is bound to the exact paths,
    // while the router (strict routing off) also serves them with a trailing slash.
    const rawPath = (req.url ?? '').split('?')[0] ?? '';
    const unguarded =
      (behaviour.fault === 'scope-skipped-on-trailing-slash' && rawPath.endsWith('/')) ||
      // The guard's table is keyed by the path as written; the router serves what it resolves to.
      routedPath(rawPath) !== rawPath ||
      (behaviour.fault === 'scope-skipped-on-method-override' &&
        req.method === 'POST' &&
        typeof req.headers['x-http-method-override'] === 'string');
    for (const scope of unguarded ? [] : route.requiredScopes) {
      // The scope-hierarchy fault: a product's write scope is read as holding its read scope.
      const implied =
        behaviour.fault === 'scope-write-implies-read' &&
        scope.endsWith('.read') &&
        outcome.caller.hasScope(scope.replace(/\.read$/, '.write'));
      if (!implied && !outcome.caller.hasScope(scope)) {
        return errorResult(
          403,
          `The token lacks the ${scope} scope, which ${route.contract.operationId} requires.`,
        );
      }
    }
    return outcome.caller;
  };

  /**
   * The guard-answers-after-dispatch fault: the authentication middleware calls `next()` before it
   * awaits its lookup, so the handler runs as a trusted caller (a delete, a release, a valid
   * update is carried out) and only the answer is the guard's refusal, sent by `respond` once the
   * handler has read the body.
   */
  const runBehindRefusal = (
    route: Route,
    req: IncomingMessage,
    pathname: string,
    checked: Checked,
    pathParameters: Readonly<Record<string, string>>,
    respond: () => void,
  ): void => {
    const run = (body: unknown): void => {
      const dispatched = execute(route, req, pathname, TRUSTED_CALLER, checked, pathParameters, body);
      if (dispatched instanceof Promise) dispatched.catch(() => undefined);
    };
    const checkBody = route.checkBody;
    if (!checkBody) {
      run(undefined);
      respond();
      return;
    }
    readJsonBody(req, deps.bodyLimits, (outcome) => {
      try {
        if (!outcome.ok) return;
        const body = bodyForRoute(route.contract.operationId, outcome.value, behaviour);
        if (checkBody(body.validated) === undefined) run(body.handled);
      } finally {
        respond();
      }
    });
  };

  const execute = (
    route: Route,
    req: IncomingMessage,
    pathname: string,
    caller: Caller,
    checked: Checked,
    pathParameters: Readonly<Record<string, string>>,
    body: unknown,
    floatMembers?: readonly string[],
  ): PendingResult => {
    const key = checked.idempotencyKey;
    // The workspace-id-read-from-body fault: the handler reads merged parameters ({...query,
    // ...body}), so a body member named workspace_id wins over the query the policy checked.
    const fromBody = (body as { workspace_id?: unknown } | undefined)?.workspace_id;
    const workspaceId =
      behaviour.fault === 'workspace-id-read-from-body' && typeof fromBody === 'string'
        ? fromBody
        : checked.workspaceId;
    const request = {
      caller,
      workspaceId,
      pathParameters,
      body,
      idempotencyKey: key,
      ...(floatMembers ? { floatMembers } : {}),
    };
    if (key === undefined) return route.handler(request, services);
    // The idempotency-key-global fault leaves the workspace out of "the same request", so a key
    // reused in another workspace replays the first workspace's answer there.
    const scope = behaviour.fault === 'idempotency-key-global' ? '' : checked.workspaceId;
    const fingerprint = requestFingerprint(req.method ?? '', pathname, scope, body);
    // Keys kept per workspace (a variant): a reuse elsewhere is a new request, not a refused one.
    // The idempotency-answer-by-body fault remembers answers by the request's fingerprint alone:
    // a create with a key of its own and the body of an earlier one is answered as its replay.
    // The idempotency-key-cut-at-64 fault keeps keys in a VARCHAR(64) column (strict mode off);
    // the idempotency-key-case-insensitive fault under a case-insensitive collation.
    const kept =
      behaviour.fault === 'idempotency-key-cut-at-64'
        ? key.slice(0, 64)
        : behaviour.fault === 'idempotency-key-case-insensitive'
          ? key.toLowerCase()
          : key;
    const stored =
      behaviour.fault === 'idempotency-answer-by-body'
        ? fingerprint
        : behaviour.variant === 'idempotency-keys-per-workspace' ||
            behaviour.fault === 'billing-skipped-for-known-key'
          ? `${checked.workspaceId} ${kept}`
          : kept;
    // The idempotency-store-per-instance fault: two instances behind a balancer that pins each
    // connection to one of them, each with its own answers.
    const instance = behaviour.fault === 'idempotency-store-per-instance' ? `${instanceOf(req)} ` : '';
    return keyed(`${instance}${stored}`, fingerprint, () => route.handler(request, services));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
    // The scope-skipped-on-method-override fault: the framework honours X-HTTP-Method-Override,
    // while the scope guard's table is keyed by the method on the wire and has no POST entry.
    const override = req.headers['x-http-method-override'];
    const overridden =
      behaviour.fault === 'scope-skipped-on-method-override' &&
      req.method === 'POST' &&
      typeof override === 'string';
    const method = overridden ? override.toUpperCase() : (req.method ?? 'GET');
    // The path-encoded-slash-html-404 fault: the router decodes %2F before matching, so the path
    // has a segment too many, matches no route, and the framework's default 404 page answers.
    if (behaviour.fault === 'path-encoded-slash-html-404' && /%2f/i.test(pathname)) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!DOCTYPE html><html><body><pre>Cannot ${method} ${decodeURIComponent(pathname)}</pre></body></html>`,
      );
      return;
    }
    const match = routes.match(
      method,
      behaviour.fault === 'scope-skipped-on-trailing-slash' && pathname.length > 1
        ? pathname.replace(/\/$/, '')
        : routedPath(pathname),
    );
    // Express's final handler: a request no route takes, whatever its method, gets its HTML 404.
    if (
      behaviour.fault === 'router-errors-html' &&
      (match.kind === 'not-found' || match.kind === 'method-not-allowed')
    ) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!DOCTYPE html><html><body><pre>Cannot ${method} ${pathname.slice(0, 200)}</pre></body></html>`,
      );
      return;
    }
    if (match.kind === 'not-found') {
      writer.sendError(
        res,
        404,
        `No endpoint ${method} ${pathname.slice(0, 200)}: the sandbox serves the operations of the API document under ${API_BASE_PATH}.`,
      );
      return;
    }
    if (match.kind === 'method-not-allowed') {
      writer.sendError(res, 405, `Method ${method} is not allowed here; use ${match.allowed.join(' or ')}.`, {
        allow: match.allowed.join(', '),
      });
      return;
    }
    if (match.kind === 'bad-path') {
      writer.sendError(res, 400, match.detail);
      return;
    }
    const route = match.value;
    // The lookup-before-auth fault: a route parameter loader reads the restore before the token
    // is checked, so a caller without one is told which restore ids exist.
    if (
      behaviour.fault === 'lookup-before-auth' &&
      route.contract.operationId === 'getCloudVmSnapshotRestore' &&
      !store.restores.has(match.pathParameters.restore_id ?? '')
    ) {
      writer.sendError(res, 404, 'The restore was not found.');
      return;
    }
    const rawQuery = queryStart === -1 ? '' : url.slice(queryStart + 1);
    const query = parseQueryString(
      behaviour.fault === 'query-decoded-twice'
        ? gatewayDecoded(rawQuery)
        : behaviour.fault === 'query-name-case-insensitive'
          ? namesInLowerCase(rawQuery)
          : rawQuery,
    );
    if (!query.ok) {
      writer.sendError(res, 400, query.detail);
      return;
    }

    // The idempotency-replay-before-auth fault: the idempotency middleware is mounted first and
    // answers a key it has stored before the token or scope is looked at.
    const presentedKey = req.headers['x-idempotency-key'];
    const storedAnswer =
      behaviour.fault === 'idempotency-replay-before-auth' && typeof presentedKey === 'string'
        ? store.idempotentAnswers.get(presentedKey)
        : undefined;
    if (storedAnswer) {
      writer.send(res, jsonResult(storedAnswer.status, storedAnswer.body));
      return;
    }

    // Token, scope and parameters are checked in one order or the other (A-CHECK-ORDER variant).
    let caller: Caller | OperationResult;
    let checked: Checked | OperationResult;
    if (parametersFirst) {
      checked = checkParameters(route, query, req, match.pathParameters);
      caller = 'kind' in checked ? checked : authorise(route, req);
    } else {
      caller = authorise(route, req);
      checked = 'kind' in caller ? caller : checkParameters(route, query, req, match.pathParameters);
    }
    if ('kind' in caller || 'kind' in checked) {
      const refused = 'kind' in checked ? checked : (caller as OperationResult);
      // The handler behind the fault reads its own parameters, whatever the guard decided.
      const handlerParameters =
        'kind' in caller && behaviour.fault === 'guard-answers-after-dispatch'
          ? 'kind' in checked
            ? checkParameters(route, query, req, match.pathParameters)
            : checked
          : undefined;
      if (handlerParameters && !('kind' in handlerParameters))
        runBehindRefusal(route, req, pathname, handlerParameters, match.pathParameters, () =>
          writer.send(res, refused),
        );
      else writer.send(res, refused);
      return;
    }
    const refusal = workspaces.refusal(caller, checked.workspaceId, method === 'GET');
    if (refusal) {
      if (behaviour.fault === 'guard-answers-after-dispatch')
        runBehindRefusal(route, req, pathname, checked, match.pathParameters, () =>
          writer.sendError(res, 403, refusal),
        );
      else writer.sendError(res, 403, refusal);
      return;
    }
    // The workspace-id-brackets-merged fault: a qs-style parser merges `workspace_id[]` into the
    // handler's workspace_id (the last copy wins), while the policy read the plain parameter.
    const polluted = pollutedByLastValue
      ? query.lastValues.get(route.workspaceParameter.name)
      : behaviour.fault === 'workspace-id-brackets-merged'
        ? query.values.get(`${route.workspaceParameter.name}[]`)
        : // The service prefers the gateway's internal header, which the gateway does not strip.
          behaviour.fault === 'workspace-id-header-overrides-query'
          ? headerText(req.headers['x-workspace-id'])
          : undefined;
    // The gateway of the workspace-id-pollution-behind-list-cache fault answers lists it cached
    // by the workspace its policy read, before the handler reads any.
    const listCacheKey =
      behaviour.fault === 'workspace-id-pollution-behind-list-cache' &&
      route.contract.operationId === 'listBuckets'
        ? checked.workspaceId
        : undefined;
    const cachedList = listCacheKey === undefined ? undefined : store.gatewayListCache.get(listCacheKey);
    if (cachedList && services.clock.now() - cachedList.at < GATEWAY_LIST_CACHE_MS) {
      writer.send(res, cachedList.answer);
      return;
    }
    if (polluted !== undefined) checked = { ...checked, workspaceId: polluted };

    const checkBody = route.checkBody;
    if (!checkBody) {
      const answer = execute(route, req, pathname, caller, checked, match.pathParameters, undefined);
      if (listCacheKey !== undefined && !(answer instanceof Promise) && answer.status === 200)
        store.gatewayListCache.set(listCacheKey, { answer, at: services.clock.now() });
      deliver(res, answer);
      return;
    }
    const authorisedCaller = caller;
    const checkedParameters = checked;
    const limits =
      behaviour.fault === 'body-first-json-value'
        ? { ...deps.bodyLimits, firstValueOnly: true }
        : behaviour.fault === 'nat-rule-duplicate-member-first-validated'
          ? { ...deps.bodyLimits, firstMemberWins: true }
          : behaviour.fault === 'nat-rule-port-float-kept'
            ? { ...deps.bodyLimits, floatMembers: true }
            : deps.bodyLimits;
    readJsonBody(req, limits, (outcome) => {
      try {
        let parsed: unknown;
        if (outcome.ok) parsed = outcome.value;
        else if (outcome.malformedJson && behaviour.fault === 'malformed-json-read-as-empty') {
          // try { JSON.parse(text) } catch { body = {} }: the parse error is swallowed.
          parsed = {};
        } else {
          if (outcome.malformedJson && behaviour.fault === 'malformed-json-answers-500') {
            writer.sendError(res, 500, 'Internal Server Error');
            return;
          }
          writer.sendError(res, outcome.status, outcome.detail);
          return;
        }
        // Go's net/http recovers a handler's panic (a type assertion on a body that is no object)
        // by closing the connection: no answer at all.
        if (
          behaviour.fault === 'handler-panic-drops-connection' &&
          (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        ) {
          req.socket.destroy();
          return;
        }
        const routed = bodyForRoute(
          route.contract.operationId,
          preparedBody(parsed, behaviour.fault),
          behaviour,
        );
        // The fault's validator looks fields up first-match while the handler decodes last-wins.
        const body =
          outcome.ok && outcome.firstMemberWins !== undefined
            ? { ...routed, validated: preparedBody(outcome.firstMemberWins, behaviour.fault) }
            : routed;
        const problem = checkBody(body.validated);
        if (problem !== undefined) {
          // The fault commits the policy row first and lets the scheduler check the schedule after.
          if (
            behaviour.fault === 'backup-refused-schedule-keeps-policy' &&
            route.contract.operationId === 'enableGpuVmBackups' &&
            problem.includes('schedule')
          )
            void Promise.resolve(
              execute(route, req, pathname, authorisedCaller, checkedParameters, match.pathParameters, {}),
            ).catch(() => undefined);
          writer.sendError(res, 400, problem);
          return;
        }
        deliver(
          res,
          execute(
            route,
            req,
            pathname,
            authorisedCaller,
            checkedParameters,
            match.pathParameters,
            body.handled,
            outcome.ok ? outcome.floatMembers : undefined,
          ),
        );
      } catch (error) {
        fail(res, error);
      }
    });
  };

  return (req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      fail(res, error);
    }
  };
}

/** The query-name-case-insensitive fault: names bound without regard to case (ASP.NET Core's model binding). */
function namesInLowerCase(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1
        ? pair.toLowerCase()
        : `${pair.slice(0, equals).toLowerCase()}${pair.slice(equals)}`;
    })
    .join('&');
}

function buildRouteTable(deps: PipelineDependencies): RouteTable<Route> {
  const fault = deps.services.behaviour.fault;
  // The api-mounted-twice fault: a router whose paths already carry /v1, mounted under /v1.
  const table = new RouteTable<Route>(
    fault === 'api-mounted-twice' ? `${API_BASE_PATH}${API_BASE_PATH}` : API_BASE_PATH,
  );
  for (const contract of deps.contract.operations) {
    const handler = deps.handlers[contract.operationId];
    if (!handler) throw new Error(`The sandbox has no handler for ${contract.operationId}`);
    const workspaceParameter = contract.parameters.find((p) => p.in === 'query' && p.name === 'workspace_id');
    if (!workspaceParameter)
      throw new Error(`${contract.operationId} declares no workspace_id query parameter`);
    table.add(contract.method, contract.path, {
      contract,
      handler,
      requiredScopes: requiredScopes(contract, fault),
      workspaceParameter,
      idempotencyParameter: contract.idempotencyKeyRequired
        ? contract.parameters.find((p) => p.in === 'header' && p.key === 'x-idempotency-key')
        : undefined,
      pathParameters: contract.parameters.filter((p) => p.in === 'path'),
      checkBody: bodyCheckFor(contract, fault),
    });
  }
  return table;
}

/** The SCOPE-1 and BILL-5 faults change which scopes one operation asks for. */
function requiredScopes(contract: OperationContract, fault: FaultId | undefined): readonly string[] {
  const ignoreFault = `ignore-scope-${contract.operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (!isFaultId(ignoreFault)) throw new Error(`No scope fault ${ignoreFault} for ${contract.operationId}`);
  if (fault === ignoreFault) return [];
  if (fault === 'preflight-requires-vm-write' && contract.operationId === 'checkResourceEligibility')
    return ['vm.write'];
  if (fault === 'create-requires-billing-read' && contract.operationId === 'createCloudVm') {
    return [contract.scope, 'billing.read'];
  }
  return [contract.scope];
}

/** The query-decoded-twice fault: a gateway that decodes the query before passing it on. */
function gatewayDecoded(query: string): string {
  try {
    return decodeURIComponent(query);
  } catch {
    return query;
  }
}

/** A request header's one value, or undefined when it is absent or given twice. */
function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
