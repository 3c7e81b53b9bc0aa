import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { observed } from '../src/checks/caseVerdict.js';
import { defineCheck } from '../src/checks/check.js';
import { findCheck } from '../src/checks/registry.js';
import { RuleViolation } from '../src/checks/ruleViolation.js';
import { runCheck } from '../src/run/checkRunner.js';
import { environmentWith, fakeTransport, fakeProfile as profile, TOKEN } from './fakeTarget.js';

const ws1 = findCheck('WS-1 rejects a request without workspace_id on every operation (any 4xx)');
const resp3 = findCheck('RESP-3 the bucket list is the list itself, a JSON array, not an envelope');
const never = new AbortController().signal;

describe('runCheck: one registry check against a fake transport, to a typed result', () => {
  it('passes WS-1 when every request without workspace_id is refused with a 4xx', async () => {
    const http = fakeTransport(() => ({ status: 400, body: { detail: 'workspace_id is required' } }));
    const { result } = await runCheck(
      ws1 ?? expect.fail('WS-1 is not in the registry'),
      environmentWith(http),
      never,
    );
    expect(result.verdict).toEqual({ state: 'passed' });
    expect(http.sent.length).toBeGreaterThan(0);
    expect(http.sent.every((request) => !request.query.some(([name]) => name === 'workspace_id'))).toBe(true);
  });

  it('fails WS-1 with a counterexample, the exchange and a replay file when one is served', async () => {
    const http = fakeTransport((request) =>
      request.method === 'GET' ? { status: 200, body: [] } : { status: 400, body: { detail: 'no' } },
    );
    const { result } = await runCheck(
      ws1 ?? expect.fail('WS-1 is not in the registry'),
      environmentWith(http),
      never,
    );
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    const [failure] = result.verdict.failures;
    expect(failure?.message).toMatch(/GET \/object-storage\/buckets answered 200/);
    expect(failure?.counterexample).toMatch(/listBuckets/);
    expect(failure?.request?.headers.authorization).toBe('Bearer [redacted]');
    const replay = JSON.parse(readFileSync(failure?.replayFile ?? '', 'utf8')) as Record<string, unknown>;
    expect(replay).toMatchObject({ kind: 'conformance-replay', rule: 'WS-1', test: ws1?.title, seed: 42 });
    expect(JSON.stringify(replay)).not.toContain(TOKEN);
  });

  it('records what a check created with an id the report can show, whatever the target answered as the id', async () => {
    const recorded: { id: string }[] = [];
    const leaking = `vm-${TOKEN}`;
    const check = defineCheck('ASYNC-1', 'records odd ids', async (t) => {
      for (const id of [undefined, null, '', 'x'.repeat(300), leaking] as unknown as string[])
        t.recordCreated('cloud VM', id, 'not cleaned up');
    });
    await runCheck(
      check,
      {
        ...environmentWith(fakeTransport(() => ({ status: 200, body: {} }))),
        recordCreated: (r) => recorded.push(r),
      },
      never,
    );
    expect(recorded.map((r) => r.id)).toEqual([
      '(no id: the target answered none)',
      '(no id: the target answered null)',
      '(no id: the target answered "")',
      `${'x'.repeat(200)}… (300 characters)`,
      'vm-[redacted]',
    ]);
  });

  it('is inconclusive, never passed, with the reason when no case could observe the rule', async () => {
    // RESP-3 needs a bucket list to judge; a target answering 500 shows nothing either way.
    const http = fakeTransport(() => ({ status: 500, body: { detail: 'upstream down' } }));
    const { result } = await runCheck(
      resp3 ?? expect.fail('RESP-3 is not in the registry'),
      environmentWith(http),
      never,
    );
    expect(result.verdict.state).toBe('inconclusive');
    if (result.verdict.state !== 'inconclusive') return;
    expect(result.verdict.reason).toMatch(/^no evidence: .*500/);
    expect(http.sent.length).toBeGreaterThan(0);
  });

  it('names, on a pass, each operation SCOPE-1 could not probe because no identity lacks its scope', async () => {
    const scope1 = findCheck('SCOPE-1 answers 403 to every (operation, identity lacking its scope) pair');
    const http = fakeTransport(() => ({ status: 403, body: { detail: 'forbidden' } }));
    const environment = environmentWith(http);
    // A bucket reader lacks billing.read, but nothing lacks object-storage.read; and the profile
    // names no restore (a read-only profile's writes are not gaps: it says so itself).
    const partial = {
      ...environment,
      session: {
        ...environment.session,
        profile: {
          ...profile,
          identities: {
            ...profile.identities,
            reader: { token: `${TOKEN}-reader`, scopes: ['object-storage.read'], workspaces: 'all' as const },
          },
        },
      },
    };
    const { result } = await runCheck(
      scope1 ?? expect.fail('SCOPE-1 is not in the registry'),
      partial,
      never,
    );
    expect(result.verdict).toEqual({ state: 'passed' });
    expect(http.sent.map((request) => request.path)).toContain('/billing/resource-eligibility');
    expect(result.gaps).toEqual([
      {
        what: 'listBuckets: no identity allowed on workspace 1042 lacks object-storage.read',
        remedy: 'add an identity allowed on workspace 1042 that lacks object-storage.read',
      },
      {
        what: 'getCloudVmSnapshotRestore: the profile names no resource for it (resources.restoreIds)',
        remedy: 'add resources.restoreIds to the profile, or a provision command that hands one out',
      },
    ]);
  });

  it('is skipped with the reason when the profile declares the rule unsupported', async () => {
    const http = fakeTransport(() => ({ status: 400, body: { detail: 'no' } }));
    const environment = environmentWith(http);
    const declared = {
      ...environment,
      session: {
        ...environment.session,
        profile: { ...profile, unsupportedRules: [{ id: 'WS-1', reason: 'legacy gateway' }] },
      },
    };
    const { result } = await runCheck(ws1 ?? expect.fail('WS-1 is not in the registry'), declared, never);
    expect(result.verdict).toEqual({
      state: 'skipped',
      reason: 'target does not claim this rule: legacy gateway',
      declared: true,
    });
    expect(http.sent).toEqual([]);
  });

  it('is incomplete, not failed, when the run is stopped before it starts', async () => {
    const http = fakeTransport(() => ({ status: 200, body: [] }));
    const stopped = new AbortController();
    stopped.abort();
    const { result } = await runCheck(
      ws1 ?? expect.fail('WS-1 is not in the registry'),
      environmentWith(http),
      stopped.signal,
    );
    expect(result.verdict.state).toBe('incomplete');
    expect(http.sent).toEqual([]);
  });

  it('a check told to stop that still returns is incomplete, never passed', async () => {
    const http = fakeTransport(() => ({ status: 400, body: { detail: 'no' } }));
    const stop = new AbortController();
    // Its property saw evidence; the stop comes before the rest of its work, which it skips.
    const ignoresTheStop = defineCheck('WS-1', 'unit: returns after the stop', async (t) => {
      await t.check(fc.constant(1), async () => observed);
      stop.abort();
    });
    const { result } = await runCheck(ignoresTheStop, environmentWith(http), stop.signal);
    expect(result.verdict.state).toBe('incomplete');
  });

  it("is incomplete, never failed, when the suite's own code throws (a TypeError) in every case", async () => {
    const http = fakeTransport(() => ({ status: 400, body: { detail: 'no' } }));
    const crashes = defineCheck('WS-1', 'unit: its own code crashes', async (t) => {
      await t.check(fc.nat(), async (n) => {
        const plan: { delaysMs?: number[] } = {};
        return (plan.delaysMs as number[])[n] === 0 ? observed : observed;
      });
    });
    const { result } = await runCheck(crashes, environmentWith(http), new AbortController().signal);
    expect(result.verdict.state).toBe('incomplete');
    expect(result.verdict.state === 'incomplete' && result.verdict.reason).toMatch(
      /suite's own code failed \(TypeError: Cannot read properties of undefined.*says nothing about the target/,
    );
  });

  it('a suite crash while a violation shrinks leaves the violation, shrunk past the crash', async () => {
    const http = fakeTransport(() => ({ status: 400, body: { detail: 'no' } }));
    // Values from 10 up break the rule; 10 to 19 also crash the check's own code, so shrinking
    // that followed the crash would stop there, or report the crash as the failure.
    const crashesOnSome = defineCheck('WS-1', 'unit: a violation, and a crash near it', async (t) => {
      await t.check(
        fc.integer({ min: 0, max: 1000 }),
        async (n) => {
          if (n >= 20) throw new RuleViolation(`saw ${n}`);
          if (n >= 10) throw new TypeError('the check misread its own plan');
          return observed;
        },
        { examples: [500] },
      );
    });
    const { result } = await runCheck(crashesOnSome, environmentWith(http), new AbortController().signal);
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.failures[0]?.message).toBe('saw 20');
    expect(result.verdict.failures[0]?.counterexample).toBe('20');
  });

  it('fails, not incomplete, when a violation is thrown outside any property', async () => {
    const http = fakeTransport(() => ({ status: 400, body: { detail: 'no' } }));
    const direct = defineCheck('WS-1', 'unit: a violation outside a property', async () => {
      throw new RuleViolation('the baseline create answered 500');
    });
    const crash = defineCheck('WS-1', 'unit: a crash outside a property', async () => {
      throw new TypeError('x is not a function');
    });
    const signal = new AbortController().signal;
    expect((await runCheck(direct, environmentWith(http), signal)).result.verdict.state).toBe('failed');
    const crashed = (await runCheck(crash, environmentWith(http), signal)).result.verdict;
    expect(crashed.state).toBe('incomplete');
  });
});

describe('replaying a recorded failure', () => {
  // A target that misapplies every update from its n-th on (a field an earlier update set is
  // reset): whether a case fails depends on how many updates came before it, not on the case.
  const target = { updates: 0, misappliesFrom: 3 };
  const statefulTarget = (misappliesFrom: number) => Object.assign(target, { updates: 0, misappliesFrom });
  const stateful = defineCheck('PATCH-1', 'unit: fails only on the state earlier cases left', async (t) => {
    await t.check(fc.integer({ min: 11, max: 100 }), async (n) => {
      target.updates++;
      if (target.updates >= target.misappliesFrom)
        throw new RuleViolation(`update ${n} reset a field an earlier update set`);
      return observed;
    });
  });
  const http = () => fakeTransport(() => ({ status: 200, body: [] }));

  async function recordedFailure() {
    statefulTarget(3);
    const { result } = await runCheck(stateful, environmentWith(http()), never);
    if (result.verdict.state !== 'failed')
      return expect.fail(`expected a failure, got ${result.verdict.state}`);
    const failure = result.verdict.failures[0] ?? expect.fail('no failure report');
    return { rule: 'PATCH-1', test: stateful.title, seed: failure.seed ?? 0, path: failure.path ?? '' };
  }

  it('runs the check again from its seed when the recorded case passes on the replay target, and fails it, saying why', async () => {
    const replay = await recordedFailure();
    // The recorded case is the first update on a fresh target; the check's cases from the seed,
    // after it, reach the third.
    statefulTarget(3);
    const { result } = await runCheck(stateful, { ...environmentWith(http()), replay }, never);
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.failures[0]?.message).toMatch(
      /reset a field .*\(the recorded case alone passed; run again from seed 42 with the cases before it, this case failed: it depends on the state those cases left\)$/,
    );
  });

  it('replays a case that fails alone as that case only, and passes on a target that no longer fails', async () => {
    const replay = await recordedFailure();
    statefulTarget(1);
    const alone = await runCheck(stateful, { ...environmentWith(http()), replay }, never);
    expect(alone.result.verdict.state).toBe('failed');
    if (alone.result.verdict.state === 'failed')
      expect(alone.result.verdict.failures[0]?.message).not.toMatch(/recorded case alone passed/);
    statefulTarget(Number.POSITIVE_INFINITY);
    const fixed = await runCheck(stateful, { ...environmentWith(http()), replay }, never);
    expect(fixed.result.verdict).toEqual({ state: 'passed' });
  });
});
