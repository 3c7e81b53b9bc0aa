import fc from 'fast-check';
import {
  malformedAuthorization,
  malformedAuthorizationCases,
  type NearMissToken,
  nearMissTokens,
  tokenPrefixes,
  unknownToken,
} from '../generate/authorization.js';
import { missingId, operationRequest, usableOperations } from '../generate/operationRequest.js';
import { anyOperation, everyPair } from '../generate/operations.js';
import type { ApiRequest } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { expectStatus, is2xx, isTokenRejection, RuleViolation } from './ruleViolation.js';

const is401 = (status: number): boolean => status === 401;
// The document says these tokens are rejected (revoked) or not valid (other environment) without
// a status: 401 is the spec's choice, and a 403 rejects them as surely (A-REVOKED-TOKEN-STATUS,
// A-OTHER-ENVIRONMENT-TOKEN).

const checks: Check[] = [];

checks.push(
  defineCheck(
    'AUTH-1',
    'answers 401 to a missing or malformed Authorization header on every operation',
    async (t) => {
      const session = t.session;
      await t.check(
        fc.tuple(anyOperation(session, 'probe'), malformedAuthorization(session.fullToken('billing.read'))),
        async ([op, auth]) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'probe', { authorization: auth.header }),
          );
          expectStatus(exchange, is401, `401 for an Authorization header that is ${auth.kind}`);
          return observed;
        },
        {
          examples: everyPair(
            usableOperations(session, 'probe'),
            malformedAuthorizationCases(session.fullToken('billing.read')),
          ),
          independent: true,
        },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'AUTH-1',
    'answers 401, not 404, to a request without the Authorization header for a resource that does not exist',
    async (t) => {
      const session = t.session;
      // A handler that looks the resource up before the token is checked tells a caller without
      // one which resources exist (404 here, 401 there); the document answers 401 to them all.
      const cases = usableOperations(session, 'probe')
        .filter((op) => op.pathParameters.length > 0)
        .map((op) => ({
          op,
          pathIds: Object.fromEntries(op.pathParameters.map((name) => [name, missingId(name)])),
        }));
      if (cases.length === 0) return t.skip('no usable operation names a resource in its path');
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, pathIds }) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'probe', { authorization: null, pathIds }),
          );
          expectStatus(
            exchange,
            is401,
            '401 for a request without the Authorization header, whether or not its resource exists',
          );
          return observed;
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

/**
 * Where else a framework finds a bearer token when the header is missing: a cookie, or an
 * `access_token` member of the JSON body (passport-http-bearer reads the body and the query). Not
 * the query: a token in a URL lands in every access log between the suite and the target.
 */
type ElsewhereCarrier = 'a cookie' | 'an access_token member of the JSON body';

function carryingTokenElsewhere(request: ApiRequest, carrier: ElsewhereCarrier, token: string): ApiRequest {
  if (carrier === 'a cookie')
    return { ...request, headers: { ...request.headers, cookie: `access_token=${token}` } };
  const body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
  return { ...request, body: JSON.stringify({ ...body, access_token: token }) };
}

checks.push(
  defineCheck(
    'AUTH-1',
    'answers 401 to a request without the Authorization header that carries a valid token elsewhere (a cookie, an access_token member of the JSON body)',
    async (t) => {
      const session = t.session;
      const token = session.fullToken('billing.read');
      const cases = usableOperations(session, 'probe').flatMap((op) => {
        const request = operationRequest(op, session, 'probe', { authorization: null });
        const objectBody = request.body !== undefined && /^\s*\{/.test(request.body);
        return (['a cookie', 'an access_token member of the JSON body'] as const)
          .filter((carrier) => carrier === 'a cookie' || objectBody)
          .map((carrier) => ({ op, carrier }));
      });
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, carrier }): Promise<CaseVerdict> => {
          const request = operationRequest(op, session, 'probe', { authorization: null });
          const exchange = await session.http.send(carryingTokenElsewhere(request, carrier, token));
          // A body checked before the token may be refused for its extra member: no verdict then.
          if (carrier !== 'a cookie' && exchange.response.status === 400)
            return notApplicable(
              `${op.operationId} refused the body with its access_token member (400) before telling whether it read the token there`,
            );
          expectStatus(
            exchange,
            is401,
            `401: the request has no Authorization header, and a valid token in ${carrier} is no credential`,
          );
          return observed;
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck('AUTH-2', 'answers 401 to unknown tokens on every operation', async (t) => {
    const session = t.session;
    const prefix = tokenPrefixes[session.profile.environment];
    await t.check(
      fc.tuple(anyOperation(session, 'probe'), unknownToken(prefix)),
      async ([op, token]) => {
        const exchange = await session.http.send(operationRequest(op, session, 'probe', { token }));
        expectStatus(exchange, is401, '401 for a token the environment never issued');
        return observed;
      },
      {
        examples: everyPair(usableOperations(session, 'probe'), [`${prefix}conformance_unknown`]),
        independent: true,
      },
    );
  }),
);

checks.push(
  defineCheck(
    'AUTH-2',
    'answers 401 to tokens one edit away from a valid one (another letter case, a character short or more, the last characters changed)',
    async (t) => {
      const session = t.session;
      const prefix = tokenPrefixes[session.profile.environment];
      const token = session.fullToken('billing.read');
      const kinds = (Object.keys(nearMissTokens) as NearMissToken[]).filter(
        (kind) => nearMissTokens[kind](token, prefix) !== token,
      );
      // As secret as the token they are made from: never printed, and never in a replay, which
      // names the kind.
      session.redactor.add(...kinds.map((kind) => nearMissTokens[kind](token, prefix)));
      const cases = everyPair(usableOperations(session, 'probe'), kinds);
      await t.check(
        fc.constantFrom(...cases),
        async ([op, kind]) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'probe', { token: nearMissTokens[kind](token, prefix) }),
          );
          expectStatus(
            exchange,
            is401,
            `401 for a valid token ${kind}: another token, which the environment never issued`,
          );
          return observed;
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck('AUTH-3', 'rejects a revoked token (401 or 403) on every operation', async (t) => {
    const session = t.session;
    const revoked = session.profile.revokedToken;
    if (!revoked) return t.skip('profile has no revokedToken');
    await t.check(
      anyOperation(session, 'probe'),
      async (op) => {
        const exchange = await session.http.send(operationRequest(op, session, 'probe', { token: revoked }));
        expectStatus(exchange, isTokenRejection, 'a rejection (401 or 403) of a revoked token');
        return observed;
      },
      { examples: usableOperations(session, 'probe'), independent: true },
    );
  }),
);

checks.push(
  defineCheck(
    'ENV-1',
    'rejects tokens of the other environment (401 or 403) on every operation',
    async (t) => {
      const session = t.session;
      const { environment } = session.profile;
      const own = tokenPrefixes[environment];
      const other = tokenPrefixes[environment === 'production' ? 'development' : 'production'];
      const swapped = session.fullToken('billing.read').replace(own, other);
      const tokens = [{ kind: 'own token with the other environment prefix', token: swapped }];
      if (session.profile.otherEnvironmentToken)
        tokens.push({
          kind: 'valid token of the other environment',
          token: session.profile.otherEnvironmentToken,
        });
      await t.check(
        fc.tuple(anyOperation(session, 'probe'), fc.constantFrom(...tokens)),
        async ([op, { kind, token }]) => {
          const exchange = await session.http.send(operationRequest(op, session, 'probe', { token }));
          expectStatus(exchange, isTokenRejection, `a rejection (401 or 403) of a ${kind}`);
          return observed;
        },
        { examples: everyPair(usableOperations(session, 'probe'), tokens), independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck('ENV-2', 'serves the API under a base URL that ends with /v1', async (t) => {
    const session = t.session;
    await t.check(
      fc.constant(session.operation('listBuckets')),
      async (op) => {
        if (!new URL(session.profile.baseUrl).pathname.endsWith('/v1'))
          throw new RuleViolation(`baseUrl ${session.profile.baseUrl} does not end with /v1`);
        const exchange = await session.http.send(operationRequest(op, session, 'positive'));
        expectStatus(exchange, is2xx, 'a success for list buckets under the /v1 base URL');
        return observed;
      },
      { independent: true },
    );
  }),
);

/** The authentication family's checks, in the order they run. */
export const authenticationChecks: readonly Check[] = checks;
