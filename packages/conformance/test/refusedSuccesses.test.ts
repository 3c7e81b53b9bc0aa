import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { keptRun } from './quietRun.js';

/**
 * A correct sandbox behind a proxy that answers `status` instead of every success of the sandbox
 * that `refused` picks: an operation broken for one workspace or one identity only, which leaves
 * the checks sending it there without evidence unless a rule asks for that answer itself.
 */
async function refusingSuccesses(
  status: number,
  refused: (req: IncomingMessage, profile: TargetProfile) => boolean,
  rules: string,
): Promise<{ exitCode: number; failed: string[]; printed: string }> {
  const sandbox = await loadSandboxModule();
  const profile = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
  const target = await startSandboxTarget(profile);
  const upstream = new URL(target.baseUrl);
  const proxy: Server = createServer((req, res) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        if ((answer.statusCode ?? 0) < 300 && refused(req, profile)) {
          answer.resume();
          res.writeHead(status, { 'content-type': 'application/json' }).end('{"detail":"refused"}');
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    const run = await keptRun(
      { ...profile, baseUrl: `http://127.0.0.1:${port}/v1` },
      { rules, depth: 3, seed: 1 },
    );
    const failed = run.outcome.rules.filter((rule) => rule.state === 'failed').map((rule) => rule.id);
    return { exitCode: run.exitCode, failed, printed: run.printed };
  } finally {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await target.stop();
  }
}

const isCreate = (req: IncomingMessage) =>
  req.method === 'POST' && /\/compute\/cloud-vms(\?|$)/.test(req.url ?? '');
const inSecondary = (req: IncomingMessage, profile: TargetProfile) =>
  isCreate(req) && (req.url ?? '').includes(`workspace_id=${profile.workspaces.secondary}`);
const forWriterWithoutBilling = (req: IncomingMessage, profile: TargetProfile) =>
  isCreate(req) && req.headers.authorization === `Bearer ${profile.identities.noBillingRead?.token}`;
/** A restore read by any identity but the broadest: a workspace filter that drops narrower tokens. */
const restoreForNarrowerTokens = (req: IncomingMessage, profile: TargetProfile) =>
  req.method === 'GET' &&
  (req.url ?? '').includes('/cloud-vm-snapshots/restores/') &&
  req.headers.authorization !== `Bearer ${profile.identities.full?.token}`;

describe('an answer refused to one workspace or to narrower identities only', () => {
  it.concurrent.each([500, 403])(
    'fails ASYNC-1 when every create in the secondary workspace answers %i',
    async (status) => {
      const run = await refusingSuccesses(status, inSecondary, 'ASYNC-1,ASYNC-4,ISO-1');
      expect(run.exitCode, run.printed).toBe(1);
      expect(run.failed).toEqual(['ASYNC-1']);
      expect(run.printed).toMatch(/create[s]? (of a cloud VM )?in workspace 1043/);
    },
  );

  it('leaves a 400 in the secondary workspace without evidence (limits there are not shown)', async () => {
    const run = await refusingSuccesses(400, inSecondary, 'ASYNC-1');
    expect(run.failed).toEqual([]);
    expect(run.printed).toMatch(/was refused \(400\) after its preflight allowed it/);
  });

  it.concurrent.each([503, 400])(
    'fails BILL-5 when every create for the identity holding vm.write without billing.read answers %i',
    async (status) => {
      const run = await refusingSuccesses(status, forWriterWithoutBilling, 'BILL-5');
      expect(run.exitCode, run.printed).toBe(1);
      expect(run.failed).toEqual(['BILL-5']);
      expect(run.printed).toMatch(
        new RegExp(
          `4 creates for identity "noBillingRead".* were answered ${status}, ${status}, ${status}, ${status}`,
        ),
      );
    },
  );

  it.concurrent.each([404, 409])(
    'fails SCOPE-2 when a restore the broadest identity reads answers %i to narrower identities holding vm.read',
    async (status) => {
      const run = await refusingSuccesses(status, restoreForNarrowerTokens, 'SCOPE-2');
      expect(run.exitCode, run.printed).toBe(1);
      expect(run.failed).toEqual(['SCOPE-2']);
      expect(run.printed).toMatch(
        new RegExp(
          `getCloudVmSnapshotRestore answered ${status} to identity "\\w+", which holds vm.read and may use workspace 1042, and 200 to identity "full"`,
        ),
      );
    },
  );
});
