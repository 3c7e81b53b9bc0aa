import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedCreateLog } from '../src/checks/keyedCreateLog.js';
import { createNatRuleRecords } from '../src/checks/natRuleRecords.js';
import { createSchemaAudit } from '../src/checks/schemaAudit.js';
import { createServedBucketLists } from '../src/checks/servedBucketLists.js';
import { createServedRestoreLog } from '../src/checks/servedRestoreLog.js';
import type { CheckRunEnvironment } from '../src/run/checkRunner.js';
import { createSecretRedactor } from '../src/secrets/secretRedactor.js';
import { planResources } from '../src/session/resourcePlan.js';
import { createSession } from '../src/session/session.js';
import { createOperationRoutes, routeExchanges } from '../src/spec/operationRoutes.js';
import { createResponseValidator } from '../src/spec/responseValidator.js';
import { createCoverageRecorder } from '../src/specCoverage/coverageRecorder.js';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import type { ApiRequest, Exchange } from '../src/transport/exchange.js';
import type { SendOptions, TargetHttp } from '../src/transport/targetHttp.js';

// Obviously fake, yet no run of 8 of its characters is ordinary text (the redactor masks such pieces).
export const TOKEN = 'svc_dev_key_FAKE0unit1test2token3X';
export const fakeProfile: TargetProfile = {
  name: 'fake',
  baseUrl: 'http://fake.invalid/v1',
  environment: 'development',
  identities: { full: { token: TOKEN, scopes: scopeNames(), workspaces: 'all' } },
  workspaces: { primary: '1042', secondary: '2001' },
  billing: { skuCode: 'sku-1' },
};

/** A transport that answers every request from `answer`, recording what was sent; no network. */
export function fakeTransport(
  answer: (
    request: ApiRequest,
    options: SendOptions,
  ) => { status: number; body?: unknown; headers?: Record<string, string> },
): TargetHttp & {
  sent: ApiRequest[];
} {
  const sent: ApiRequest[] = [];
  let log: Exchange[] = [];
  const http: TargetHttp & { sent: ApiRequest[] } = {
    sent,
    origin: 'http://fake.invalid',
    stats: { requests: 0, timeouts: 0, rateLimitedInARow: 0, pausedUntil: 0 },
    async send(request, options = {}) {
      sent.push(request);
      const { status, body, headers } = answer(request, options);
      const bodyText = body === undefined ? '' : JSON.stringify(body);
      const exchange: Exchange = {
        request,
        url: `http://fake.invalid/v1${request.path}`,
        response: {
          status,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          bodyText,
          json: body,
          isJson: body !== undefined,
          durationMs: 1,
        },
      };
      log.push(exchange);
      return exchange;
    },
    forward: () => Promise.reject(new Error('not used')),
    admitTogether: async () => ({}),
    drain() {
      const drained = log;
      log = [];
      return drained;
    },
    cancelInFlight: () => undefined,
    scoped: () => http,
  };
  return http;
}

/**
 * What a check is lent against the fake transport: a session on `fakeProfile` (with `overrides`),
 * whose keyed-create log reads the exchanges as a run's does.
 */
export function environmentWith(
  http: TargetHttp,
  overrides: Partial<TargetProfile> = {},
): CheckRunEnvironment {
  const validator = createResponseValidator();
  const profile = { ...fakeProfile, ...overrides };
  const keyedCreates = createKeyedCreateLog();
  const servedRestores = createServedRestoreLog();
  const servedBucketLists = createServedBucketLists();
  const natRuleRecords = createNatRuleRecords();
  const routed = routeExchanges(createOperationRoutes(validator.operations), [
    keyedCreates,
    servedRestores,
    servedBucketLists,
    natRuleRecords,
  ]);
  const recorded: TargetHttp = {
    ...http,
    async send(request, sendOptions) {
      const exchange = await http.send(request, sendOptions);
      routed(exchange);
      return exchange;
    },
    scoped: () => recorded,
  };
  const session = createSession({
    profile,
    targetKind: 'real',
    http: recorded,
    plan: planResources(profile),
    validator,
    redactor: createSecretRedactor([TOKEN]),
    coverage: createCoverageRecorder(),
    keyedCreates,
    servedRestores,
    servedBucketLists,
    natRuleRecords,
    depth: 3,
    seed: 42,
    concurrency: 1,
  });
  return {
    session,
    schemaAudit: createSchemaAudit(validator),
    runDir: mkdtempSync(join(tmpdir(), 'conformance-check-runner-')),
    recordedTarget: { target: '(profile object)', profileDigest: '0' },
    replayCommand: (file) => `npx cloud-api-conformance --replay ${file} --target fake.yaml`,
    recordCreated: () => undefined,
  };
}
