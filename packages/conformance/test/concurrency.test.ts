import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../src/ruleCatalogue/index.js';
import { runConformance } from '../src/run/engine.js';
import type { RunOutcome } from '../src/run/outcome.js';
import { effectiveConcurrency } from '../src/run/plan.js';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { forwardTo, listenLocally } from './localServer.js';

interface RecordedRun {
  readonly outcome: RunOutcome;
  /** Every request the target received, as one comparable line each, sorted. */
  readonly requests: readonly string[];
  readonly maxInFlight: number;
}

let sandboxProfile: TargetProfile;
/** Every rule but the CONC ones, whose cases need requests in flight together. */
const SEQUENTIAL_RULES = rules
  .map((rule) => rule.id)
  .filter((id) => !id.startsWith('CONC-'))
  .join(',');

function identityOf(authorization: string | undefined): string {
  if (authorization === undefined) return 'none';
  const named = Object.entries(sandboxProfile.identities).find(
    ([, identity]) => authorization === `Bearer ${identity.token}`,
  );
  return named ? named[0] : `sha256:${createHash('sha256').update(authorization).digest('hex').slice(0, 16)}`;
}

/** A fresh sandbox (the runs change its state) behind a proxy that records what arrives. */
async function recordedRun(concurrency: number, rules = SEQUENTIAL_RULES): Promise<RecordedRun> {
  const sandbox = await startSandboxTarget(sandboxProfile);
  const requests: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const proxy = await listenLocally((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      // Idempotency keys, names and missing-resource IDs are fresh on every run: only their
      // presence is compared. Tokens are compared by the identity they belong to, never printed.
      const key = req.headers['x-idempotency-key'] === undefined ? 'no key' : 'key';
      // A run's VM names carry a tag of the run (conformance-<6 hex>-<drawn>): the tag is fresh,
      // what follows it is drawn from the seed and compared.
      const fresh = (text: string): string =>
        text
          .replace(/"conformance-[0-9a-f]{6}-([a-z0-9]{1,8})"/g, '"conformance-<run>-$1"')
          .replace(/(conformance-(?:[a-z_]+-)*)[0-9a-f]{8}(?![0-9a-z])/g, '$1<fresh>');
      requests.push(
        fresh(
          `${req.method} ${req.url} as=${identityOf(req.headers.authorization)} type=${req.headers['content-type'] ?? '-'} ${key} ${body}`,
        ),
      );
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      forwardTo(new URL(sandbox.baseUrl).origin, req, res, { body });
    });
  });
  try {
    const { outcome } = await runConformance({
      profile: { ...sandboxProfile, baseUrl: `${proxy.origin}/v1` },
      depth: 4,
      seed: 31,
      concurrency,
      rules,
      reporters: ['json'],
      outDir: mkdtempSync(join(tmpdir(), `conformance-concurrency-${concurrency}-`)),
      print: () => undefined,
    });
    return { outcome, requests: [...requests].sort(), maxInFlight };
  } finally {
    await proxy.close();
    await sandbox.stop();
  }
}

const verdicts = (outcome: RunOutcome): string[] =>
  outcome.tests.map((test) => `${test.title}: ${test.state}`).sort();

describe('bounded concurrency', () => {
  beforeAll(async () => {
    const module = await loadSandboxModule();
    sandboxProfile = embeddedSandboxProfile(module.defaultSandboxProfile(), scopeNames());
  });

  it('gives the same verdicts and sends the same requests at concurrency 4 as at 1, for a fixed seed', async () => {
    const one = await recordedRun(1);
    const four = await recordedRun(4);
    expect(one.outcome.info.concurrency).toBe(1);
    expect(four.outcome.info.concurrency).toBe(4);
    expect(one.maxInFlight).toBe(1);
    expect(four.maxInFlight).toBeGreaterThan(1);
    expect(four.maxInFlight).toBeLessThanOrEqual(4);
    expect(one.outcome.verdict).toBe('passed');
    expect(verdicts(four.outcome)).toEqual(verdicts(one.outcome));
    expect(four.requests.length).toBeGreaterThan(500);
    expect(four.requests).toEqual(one.requests);
  });

  it('leaves the CONC rules inconclusive, never passed, when only one request may be in flight', async () => {
    const one = await recordedRun(1, 'CONC-*');
    expect(one.maxInFlight).toBe(1);
    expect(one.outcome.verdict).toBe('incomplete');
    const states = one.outcome.tests.map((test) => `${test.rule}: ${test.state}`);
    expect(states).toEqual(['CONC-1: inconclusive', 'CONC-2: inconclusive', 'CONC-3: inconclusive']);
    const four = await recordedRun(4, 'CONC-*');
    expect(four.maxInFlight).toBeGreaterThan(1);
    expect(four.outcome.verdict).toBe('passed');
  });

  it('keeps a failure seen only while cases were in flight together, even if a rerun alone passes', async () => {
    const sandbox = await startSandboxTarget(sandboxProfile);
    let inFlight = 0;
    // Serves an invalid workspace_id only when another request is in flight: a race in its parser.
    const racy = await listenLocally((req, res) => {
      inFlight++;
      res.on('close', () => inFlight--);
      if (inFlight > 1 && /workspace_id=0(&|$)/.test(req.url ?? '')) {
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'), 5);
        return;
      }
      setTimeout(() => forwardTo(new URL(sandbox.baseUrl).origin, req, res), 5);
    });
    try {
      const run = (concurrency: number) =>
        runConformance({
          profile: { ...sandboxProfile, baseUrl: `${racy.origin}/v1` },
          rules: 'WS-2',
          depth: 2,
          seed: 5,
          concurrency,
          reporters: ['json'],
          outDir: mkdtempSync(join(tmpdir(), `conformance-racy-${concurrency}-`)),
          print: () => undefined,
        });
      const alone = await run(1);
      expect(alone.outcome.rules.map((rule) => `${rule.id}: ${rule.state}`)).toEqual(['WS-2: passed']);
      const together = await run(4);
      expect(together.outcome.rules.map((rule) => `${rule.id}: ${rule.state}`)).toEqual(['WS-2: failed']);
      expect(together.exitCode).toBe(1);
      const failure = together.outcome.tests.find((test) => test.rule === 'WS-2')?.failures[0];
      expect(failure?.message).toMatch(/with 4 cases in flight; re-run one at a time it passed/);
      expect(failure?.path).toMatch(/^\d+$/);
    } finally {
      await racy.close();
      await sandbox.stop();
    }
  });

  it('takes the option, else the profile, else 4; never more than the rate limit allows', () => {
    const profile = { concurrency: 6 } as TargetProfile;
    expect(effectiveConcurrency(undefined, {} as TargetProfile)).toBe(4);
    expect(effectiveConcurrency(undefined, profile)).toBe(6);
    expect(effectiveConcurrency(2, profile)).toBe(2);
    expect(effectiveConcurrency(8, { rateLimitPerSecond: 3.5 } as TargetProfile)).toBe(3);
    expect(effectiveConcurrency(8, { rateLimitPerSecond: 0.5 } as TargetProfile)).toBe(1);
  });
});
