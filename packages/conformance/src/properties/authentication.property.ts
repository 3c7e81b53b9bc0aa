import fc from 'fast-check';
import {
  malformedAuthorization,
  malformedAuthorizationCases,
  tokenPrefixes,
  unknownToken,
} from '../arbitraries/authorization.js';
import { operationRequest, usableOperations } from '../arbitraries/operationRequest.js';
import { anyOperation, everyPair } from '../arbitraries/operations.js';
import { observed } from '../suite/caseVerdict.js';
import { expectStatus, is2xx } from '../suite/ruleViolation.js';
import { getSuite, ruleTest } from '../suite/suiteContext.js';

const is401 = (status: number): boolean => status === 401;
// The document says these tokens are rejected (revoked) or not valid (other environment) without
// a status: 401 is the spec's choice, and a 403 rejects them as surely (A-REVOKED-TOKEN-STATUS,
// A-OTHER-ENVIRONMENT-TOKEN).
const isTokenRejection = (status: number): boolean => status === 401 || status === 403;

ruleTest(
  'AUTH-1',
  'answers 401 to a missing or malformed Authorization header on every operation',
  async (t) => {
    const suite = getSuite();
    await t.check(
      fc.tuple(anyOperation(suite, 'probe'), malformedAuthorization(suite.fullToken('billing.read'))),
      async ([op, auth]) => {
        const exchange = await suite.http.send(
          operationRequest(op, suite, 'probe', { authorization: auth.header }),
        );
        expectStatus(exchange, is401, `401 for an Authorization header that is ${auth.kind}`);
        return observed;
      },
      {
        examples: everyPair(
          usableOperations(suite, 'probe'),
          malformedAuthorizationCases(suite.fullToken('billing.read')),
        ),
        independent: true,
      },
    );
  },
);

ruleTest('AUTH-2', 'answers 401 to unknown tokens on every operation', async (t) => {
  const suite = getSuite();
  const prefix = tokenPrefixes[suite.profile.environment];
  await t.check(
    fc.tuple(anyOperation(suite, 'probe'), unknownToken(prefix)),
    async ([op, token]) => {
      const exchange = await suite.http.send(operationRequest(op, suite, 'probe', { token }));
      expectStatus(exchange, is401, '401 for a token the environment never issued');
      return observed;
    },
    {
      examples: everyPair(usableOperations(suite, 'probe'), [`${prefix}conformance_unknown`]),
      independent: true,
    },
  );
});

ruleTest('AUTH-3', 'rejects a revoked token (401 or 403) on every operation', async (t) => {
  const suite = getSuite();
  const revoked = suite.profile.revokedToken;
  if (!revoked) return t.skip('profile has no revokedToken');
  await t.check(
    anyOperation(suite, 'probe'),
    async (op) => {
      const exchange = await suite.http.send(operationRequest(op, suite, 'probe', { token: revoked }));
      expectStatus(exchange, isTokenRejection, 'a rejection (401 or 403) of a revoked token');
      return observed;
    },
    { examples: usableOperations(suite, 'probe'), independent: true },
  );
});

ruleTest('ENV-1', 'rejects tokens of the other environment (401 or 403) on every operation', async (t) => {
  const suite = getSuite();
  const { environment } = suite.profile;
  const own = tokenPrefixes[environment];
  const other = tokenPrefixes[environment === 'production' ? 'development' : 'production'];
  const swapped = suite.fullToken('billing.read').replace(own, other);
  const tokens = [{ kind: 'own token with the other environment prefix', token: swapped }];
  if (suite.profile.otherEnvironmentToken)
    tokens.push({ kind: 'valid token of the other environment', token: suite.profile.otherEnvironmentToken });
  await t.check(
    fc.tuple(anyOperation(suite, 'probe'), fc.constantFrom(...tokens)),
    async ([op, { kind, token }]) => {
      const exchange = await suite.http.send(operationRequest(op, suite, 'probe', { token }));
      expectStatus(exchange, isTokenRejection, `a rejection (401 or 403) of a ${kind}`);
      return observed;
    },
    { examples: everyPair(usableOperations(suite, 'probe'), tokens), independent: true },
  );
});

ruleTest('ENV-2', 'serves the API under a base URL that ends with /v1', async (t) => {
  const suite = getSuite();
  await t.check(
    fc.constant(suite.operation('listBuckets')),
    async (op) => {
      if (!new URL(suite.profile.baseUrl).pathname.endsWith('/v1'))
        throw new Error(`baseUrl ${suite.profile.baseUrl} does not end with /v1`);
      const exchange = await suite.http.send(operationRequest(op, suite, 'positive'));
      expectStatus(exchange, is2xx, 'a success for list buckets under the /v1 base URL');
      return observed;
    },
    { independent: true },
  );
});
