import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { forwardTo, listenLocally } from './localServer.js';

/**
 * The run's one accepted delete goes out with a copy of itself at the same moment. A target that
 * takes on the copy, answering it 200 (not the document's 202), and refuses the other with 409:
 * the checks judge the 200, so which copy won the race never decides the verdict.
 */
let sandboxProfile: TargetProfile;

beforeAll(async () => {
  const module = await loadSandboxModule();
  sandboxProfile = embeddedSandboxProfile(module.defaultSandboxProfile(), scopeNames());
});

describe('the shared delete judged is the one the target took on', () => {
  it('fails ASYNC-1 on every seed when the copy is answered 200 and the delete itself 409', async () => {
    const states: string[] = [];
    for (const seed of [1, 2, 3, 4]) {
      // A sandbox of its own each time: a run consumes the VM it deletes.
      const sandbox = await startSandboxTarget(sandboxProfile);
      // The first delete to arrive waits for its copy; then the copy is taken on (200) and the
      // first refused (409): the copy won the race, as it may on a busy target.
      const waiting = new Map<string, () => void>();
      const server = await listenLocally((req, res) => {
        const gpuDelete = req.method === 'DELETE' && /\/compute\/gpu-vms\/[^/?]+\?/.test(req.url ?? '');
        if (!gpuDelete) return forwardTo(sandbox.baseUrl, req, res);
        const path = (req.url ?? '').split('?')[0] as string;
        const refuse = () =>
          res.writeHead(409, { 'content-type': 'application/json' }).end('{"detail":"being deleted"}');
        const take = () =>
          forwardTo(sandbox.baseUrl, req, res, {
            onAnswer: (answer) => {
              if (answer.statusCode === 202) answer.statusCode = 200;
            },
          });
        const first = waiting.get(path);
        if (first) {
          waiting.delete(path);
          take();
          first();
          return;
        }
        const alone = setTimeout(() => {
          waiting.delete(path);
          take();
        }, 500);
        waiting.set(path, () => {
          clearTimeout(alone);
          refuse();
        });
      });
      try {
        const { outcome } = await runConformance({
          profile: { ...sandboxProfile, baseUrl: `${server.origin}/v1` },
          rules: 'ASYNC-1',
          depth: 2,
          seed,
          reporters: [],
          outDir: mkdtempSync(join(tmpdir(), 'conformance-shared-delete-')),
          print: () => undefined,
        });
        states.push(outcome.rules.find((rule) => rule.id === 'ASYNC-1')?.state ?? 'missing');
      } finally {
        await server.close();
        await sandbox.stop();
      }
    }
    expect(states).toEqual(['failed', 'failed', 'failed', 'failed']);
  });
});
