import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { RunSetupError } from '../src/run/runSetupError.js';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import { type LocalServer, listenLocally } from './localServer.js';
import { runCli } from './runCli.js';

// Random like a real token: a token made of words would have its pieces masked in ordinary text.
const TOKEN = `svc_dev_key_${randomBytes(18).toString('base64url')}`;

/** Targets that are not the API, each answering every request the same way. */
const wrongTargets: Record<string, (res: ServerResponse) => void> = {
  '404 with a JSON detail everywhere (a mistyped path prefix behind a JSON framework)': (res) =>
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}'),
  'an HTML page (a single-page app or a default server)': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><html><body>Welcome</body></html>'),
  'a redirect to a login page': (res) =>
    res.writeHead(302, { location: 'https://login.example.invalid/sso' }).end(),
  'a plain-text 200': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'),
  'JSON behind a byte-order mark': (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('\uFEFF[]'),
};

const servers: LocalServer[] = [];
afterAll(async () => Promise.all(servers.map((server) => server.close())));

function profileFor(origin: string): TargetProfile {
  return {
    name: 'wrong target',
    baseUrl: `${origin}/v1`,
    environment: 'development',
    identities: { full: { token: TOKEN, scopes: scopeNames(), workspaces: 'all' } },
    workspaces: { primary: '1042', secondary: '1043' },
    resources: {
      restoreIds: ['rst-1'],
      natRules: [{ vpcId: 'vpc-1', natGatewayId: 'nat-1', ruleId: 'pfr-1' }],
    },
    billing: { skuCode: 'sku-1' },
  };
}

const SUBSETS = ['WS-1,WS-2,NEG-1,ISO-1,ERR-3,SCOPE-2', 'WS-1', 'AUTH-1', 'ERR-3', undefined];

describe('preflight: a base URL that does not serve the API never passes', () => {
  it.each(Object.entries(wrongTargets))(
    '%s: every rule subset stops before any rule, naming the URL',
    async (_name, answer) => {
      let requests = 0;
      const server = await listenLocally((_req, res) => {
        requests++;
        answer(res);
      });
      servers.push(server);
      for (const rules of SUBSETS) {
        const before = requests;
        const run = runConformance({
          profile: profileFor(server.origin),
          strict: true,
          depth: 2,
          reporters: [],
          print: () => undefined,
          ...(rules ? { rules } : {}),
        });
        await expect(run, rules ?? 'every rule').rejects.toThrow(RunSetupError);
        await expect(run).rejects.toThrow(
          `preflight: ${server.origin}/v1 does not answer like the API, so no rule was run`,
        );
        // Only the preflight's reads were sent: no rule ran.
        expect(requests - before).toBeLessThanOrEqual(3);
      }
    },
  );

  it('names a byte-order mark before the JSON, which the quoted body would hide', async () => {
    const server = await listenLocally((_req, res) => wrongTargets['JSON behind a byte-order mark']?.(res));
    servers.push(server);
    const run = runConformance({
      profile: profileFor(server.origin),
      depth: 2,
      reporters: [],
      print: () => undefined,
    });
    await expect(run).rejects.toThrow(/starts with a byte-order mark \(U\+FEFF\)/);
  });

  it("blames a refusal that is not JSON on what sits in front of the API, a JSON one on the profile's token", async () => {
    const waf = await listenLocally((_req, res) =>
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>Request blocked</body></html>'),
    );
    const api = await listenLocally((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"The token is invalid."}'),
    );
    servers.push(waf, api);
    const preflightOf = (origin: string) =>
      runConformance({ profile: profileFor(origin), depth: 2, reporters: [], print: () => undefined });
    await expect(preflightOf(waf.origin)).rejects.toThrow(
      /answered 403 .*a refusal that is not JSON, so most likely from a firewall, WAF or gateway in front of the API/,
    );
    await expect(preflightOf(api.origin)).rejects.toThrow(
      /answered 401 .*the broadest identity of the profile was refused: check its token/,
    );
  });

  it('the CLI exits 2 with one line naming the URL and what came back, and no token', async () => {
    const server = await listenLocally((_req, res) =>
      wrongTargets['404 with a JSON detail everywhere (a mistyped path prefix behind a JSON framework)']?.(
        res,
      ),
    );
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'conformance-preflight-'));
    const file = join(dir, 'profile.yaml');
    writeFileSync(
      file,
      `name: mistyped\nbaseUrl: ${server.origin}/api/v1\nenvironment: development\nidentities:\n  full: { token: "\${PREFLIGHT_TOKEN}", scopes: all, workspaces: all }\nworkspaces: { primary: "1042", secondary: "1043" }\nbilling: { skuCode: sku-1 }\n`,
    );
    const run = await runCli(
      ['--target', file, '--strict', '--rules', 'WS-1,WS-2,NEG-1,ISO-1,ERR-3,SCOPE-2'],
      {
        env: { PREFLIGHT_TOKEN: TOKEN },
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`preflight: ${server.origin}/api/v1 does not answer like the API`));
    expect(run.stderr).toMatch(
      /answered 404 \(application\/json\): "\{\\"detail\\":\\"Not Found\\"\}"; an operation on a collection is not found/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
    expect(run.stdout).not.toMatch(/PASS/);
  });

  it.concurrent.each([
    ['the default wait', '', 10, 'http'],
    ['preflightTimeoutMs: 2000', 'preflightTimeoutMs: 2000\n', 2, 'http'],
    // A plain-HTTP server given a TLS handshake mostly waits for a request line, as this one does.
    ['preflightTimeoutMs: 2000, with an https baseUrl', 'preflightTimeoutMs: 2000\n', 2, 'https'],
  ] as const)(
    'a target that accepts connections and never answers stops the CLI with exit 2 within %s, naming the URL',
    async (_name, setting, seconds, scheme) => {
      // A TCP server that takes every connection and reads what comes, but never writes a byte.
      const sockets: Socket[] = [];
      const server = createServer((socket) => {
        sockets.push(socket);
        socket.resume();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      const origin = `${scheme}://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      try {
        const dir = mkdtempSync(join(tmpdir(), 'conformance-preflight-hang-'));
        const file = join(dir, 'profile.yaml');
        // The request timeout and the deadline are long: only the preflight's own wait can stop it early.
        writeFileSync(
          file,
          `name: hanging\nbaseUrl: ${origin}/v1\nenvironment: development\nidentities:\n  full: { token: "\${PREFLIGHT_TOKEN}", scopes: all, workspaces: all }\nworkspaces: { primary: "1042", secondary: "1043" }\nbilling: { skuCode: sku-1 }\nrequestTimeoutMs: 600000\n${setting}`,
        );
        const run = await runCli(['--target', file, '--deadline', '600', '--out', join(dir, 'out')], {
          env: { PREFLIGHT_TOKEN: TOKEN },
          timeoutMs: 60_000,
        });
        expect(run.code, run.stderr).toBe(2);
        // Both reads the profile allows, the second sent two seconds after the first: one wait in all.
        expect(run.stderr).toContain(
          `conformance: preflight: ${origin}/v1 gave no answer within ${seconds} s (GET ${origin}/v1/object-storage/buckets?workspace_id=1042, POST ${origin}/v1/billing/resource-eligibility?workspace_id=1042: not even a status line), so no rule was run.`,
        );
        expect(run.stderr).toMatch(/raise preflightTimeoutMs in the profile/);
        if (scheme === 'https') expect(run.stderr).toMatch(/speaks plain HTTP.*try baseUrl with http:\/\//);
        else expect(run.stderr).not.toMatch(/plain HTTP/);
        // The wait, plus start-up and exit; never the request timeout or the deadline.
        expect(run.lifetimeMs).toBeGreaterThanOrEqual(seconds * 1000);
        expect(run.lifetimeMs).toBeLessThan(seconds * 1000 + 15_000);
        expect(sockets.length).toBeGreaterThan(0);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
        expect(run.stdout).not.toMatch(/PASS/);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );

  it('a correct target passes the preflight and runs its rules', async () => {
    const result = await runConformance({ rules: 'WS-1', depth: 1, reporters: [], print: () => undefined });
    expect(result.exitCode).toBe(0);
  });
});
