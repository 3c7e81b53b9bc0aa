import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileSecrets, scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import type { RunningTarget } from '../src/targets/runningTarget.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { forwardTo, type LocalServer, listenLocally } from './localServer.js';
import { runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-networks-'));
let sandbox: RunningTarget;
let profile: TargetProfile;
let sandboxRequests = 0;
let counted: LocalServer;
const closers: (() => Promise<void>)[] = [];

/** A correct sandbox behind a counter, and a profile file for a target at `baseUrl`. */
beforeAll(async () => {
  const module = await loadSandboxModule();
  profile = embeddedSandboxProfile(module.defaultSandboxProfile(), scopeNames());
  sandbox = await startSandboxTarget(profile);
  const upstream = new URL(sandbox.baseUrl).origin;
  counted = await listenLocally((req, res) => {
    sandboxRequests++;
    forwardTo(upstream, req, res);
  });
});
afterAll(async () => {
  for (const close of closers) await close();
  await counted?.close();
  await sandbox?.stop();
});

/** The CLI's environment with `variable` naming the proxy and nothing exempt from it. */
function viaProxy(variable: string, proxyUrl: string): { env: Record<string, string> } {
  return { env: { [variable]: proxyUrl, NO_PROXY: '', no_proxy: '' } };
}

function profileFile(name: string, baseUrl: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...profile, name, baseUrl }));
  return file;
}

/** What an HTTP proxy does with an absolute-form request: sends it on and the answer back. */
function passOn(req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(req.url ?? '');
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  const forwarded = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: req.method,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on('error', () => res.writeHead(502).end());
  req.pipe(forwarded);
}

describe('real networks', () => {
  it('honours HTTP_PROXY: every request goes through the proxy, with its credentials, which are never printed', async () => {
    const proxied: string[] = [];
    let unauthorised = 0;
    const password = 'proxy-pass-7Hq2';
    const proxy = await listenLocally((req, res) => {
      // An HTTP proxy gets absolute-form targets; it forwards them and answers back.
      const expected = `Basic ${Buffer.from(`gate:${password}`).toString('base64')}`;
      if (req.headers['proxy-authorization'] !== expected) {
        unauthorised++;
        res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
        return;
      }
      proxied.push(`${req.method} ${req.url}`);
      passOn(req, res);
    });
    closers.push(() => proxy.close());
    const before = sandboxRequests;
    const proxyUrl = `${proxy.origin.replace('http://', `http://gate:${password}@`)}`;
    const run = await runCli(
      [
        '--target',
        profileFile('behind-a-proxy', `${counted.origin}/v1`),
        '--rules',
        'WS-*,AUTH-1,RESP-*',
        '--depth',
        '3',
      ],
      viaProxy('HTTP_PROXY', proxyUrl),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(unauthorised).toBe(0);
    // The proxy saw every request the target received, and each was for the target.
    expect(proxied.length).toBe(sandboxRequests - before);
    expect(proxied.length).toBeGreaterThan(20);
    expect(proxied.every((line) => line.includes(`${counted.origin}/v1/`))).toBe(true);
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain(password);
      for (const secret of profileSecrets(profile)) expect(text.includes(secret)).toBe(false);
    }
  });

  it.each([
    [407, 'Proxy Authentication Required', /\(it wants credentials: give them in the proxy URL/],
    [502, 'Bad Gateway', /; check the proxy variable, or NO_PROXY for this host\./],
  ])(
    'a proxy that answers CONNECT with %i stops the run at the preflight, naming the proxy: its refusal is never read as the API answering',
    async (status, text, says) => {
      const proxy = await listenLocally((_req, res) => res.writeHead(status).end());
      proxy.server.on('connect', (_req, socket) => {
        socket.end(`HTTP/1.1 ${status} ${text}\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n`);
      });
      closers.push(() => proxy.close());
      const run = await runCli(
        ['--target', profileFile(`tunnel-${status}`, 'https://api.example.invalid/v1')],
        viaProxy('HTTPS_PROXY', proxy.origin),
      );
      expect(run.code, run.stdout).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `^conformance: preflight: cannot reach https://api\\.example\\.invalid/v1: the proxy ${proxy.origin.replaceAll('.', '\\.')} that HTTPS_PROXY names refused a tunnel to api\\.example\\.invalid:443: the proxy answered CONNECT with ${status} ${text}`,
        ),
      );
      expect(run.stderr).toMatch(says);
      expect(run.stdout).not.toMatch(/FAILED|answered 40\d, expected/);
    },
  );

  it.each([
    [502, '<html><body><h1>502 Bad Gateway</h1></body></html>'],
    [503, ''],
  ])(
    'an HTTP proxy answering %i for a plain-http target stops the preflight naming the proxy and its variable',
    async (status, body) => {
      const proxy = await listenLocally((_req, res) =>
        res.writeHead(status, body ? { 'content-type': 'text/html' } : {}).end(body),
      );
      closers.push(() => proxy.close());
      const run = await runCli(
        ['--target', profileFile(`proxy-${status}`, 'http://api.example.invalid/v1')],
        viaProxy('HTTP_PROXY', proxy.origin),
      );
      expect(run.code, run.stdout).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `answered ${status} .*most likely the proxy ${proxy.origin.replaceAll('.', '\\.')} that HTTP_PROXY names, which could not reach the target .*list api\\.example\\.invalid in NO_PROXY`,
        ),
      );
      expect(run.stdout).not.toMatch(/FAILED/);
    },
  );

  it.each([
    [403, 'Forbidden by proxy policy'],
    [401, '<html><body>Sign in to the corporate network</body></html>'],
  ])(
    "an HTTP proxy refusing a plain-http target with its own %i page is named, never blamed on the profile's token",
    async (status, body) => {
      const proxy = await listenLocally((_req, res) =>
        res
          .writeHead(status, { 'content-type': body.startsWith('<') ? 'text/html' : 'text/plain' })
          .end(body),
      );
      closers.push(() => proxy.close());
      const run = await runCli(
        ['--target', profileFile(`proxy-refuses-${status}`, 'http://api.example.invalid/v1')],
        viaProxy('HTTP_PROXY', proxy.origin),
      );
      expect(run.code, run.stdout).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `answered ${status} .*most likely the proxy ${proxy.origin.replaceAll('.', '\\.')} that HTTP_PROXY names, refusing the request with a page of its own .*list api\\.example\\.invalid in NO_PROXY`,
        ),
      );
      expect(run.stderr).not.toMatch(/check its token/);
    },
  );

  it('a base URL nothing can reach is one line and exit 2: the port, the host name, the proxy, the scheme', async () => {
    const closed = await listenLocally((_req, res) => res.end());
    await closed.close();
    const refused = await runCli(['--target', profileFile('closed-port', `${closed.origin}/v1`)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^conformance: preflight: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: connection refused: nothing listens at 127\.0\.0\.1:\d+ \(is the target running\? are baseUrl's host and port right\?\)\. No rule was run\.\n$/,
    );
    const deadProxy = await runCli(
      ['--target', profileFile('dead-proxy', 'http://api.example.invalid/v1')],
      viaProxy('HTTP_PROXY', `http://gate:proxy-pass-9Xk@${closed.origin.slice('http://'.length)}`),
    );
    expect(deadProxy.code).toBe(2);
    expect(deadProxy.stderr).toMatch(
      /the proxy http:\/\/127\.0\.0\.1:\d+ that HTTP_PROXY names could not be reached \(ECONNREFUSED\); check that variable, or set NO_PROXY for api\.example\.invalid/,
    );
    expect(deadProxy.stderr).not.toContain('proxy-pass-9Xk');
    const plain = new URL(counted.origin);
    const tlsMismatch = await runCli([
      '--target',
      profileFile('https-to-http', `https://127.0.0.1:${plain.port}/v1`),
    ]);
    expect(tlsMismatch.code).toBe(2);
    expect(tlsMismatch.stderr).toMatch(
      /the TLS handshake with 127\.0\.0\.1:\d+ failed: the server there does not seem to speak HTTPS \(should baseUrl start with http:\/\/\?\)\. No rule was run\./,
    );
    expect(tlsMismatch.stderr).not.toMatch(/ssl3_get_record|openssl/);
  });

  it("a proxy that starts asking for credentials mid-run (407) leaves checks incomplete: never the target's failure", async () => {
    let forwarded = 0;
    const proxy = await listenLocally((req, res) => {
      // The preflight's read goes through; every later request gets the proxy's 407.
      if (forwarded >= 1) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
        return;
      }
      forwarded++;
      passOn(req, res);
    });
    closers.push(() => proxy.close());
    const run = await runCli(
      [
        '--target',
        profileFile('proxy-407-mid-run', `${counted.origin}/v1`),
        '--rules',
        'WS-1,AUTH-1',
        '--depth',
        '2',
      ],
      viaProxy('HTTP_PROXY', proxy.origin),
    );
    expect(forwarded).toBe(1);
    expect(run.code, run.stdout).toBe(3);
    expect(run.stdout).toMatch(
      /a proxy between the suite and the target answered 407 Proxy Authentication Required \(the proxy http:\/\/127\.0\.0\.1:\d+ that HTTP_PROXY names/,
    );
    expect(run.stdout).not.toMatch(/FAIL|answered 407, expected/);
  });

  it('a SOCKS proxy URL is refused in one line naming the variable, never spoken to as an HTTP proxy', async () => {
    const run = await runCli(
      ['--target', profileFile('socks', 'http://api.example.invalid/v1')],
      viaProxy('ALL_PROXY', 'socks5://bob:socks-pass-4Tz@127.0.0.1:9'),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'conformance: ALL_PROXY names a socks5:// proxy; the suite reaches targets only through HTTP proxies (an http:// or https:// proxy URL, with CONNECT for https targets). Give an HTTP proxy there, or list api.example.invalid in NO_PROXY if the target needs none.\n',
    );
  });

  it('a proxy that refuses the credentials its URL gives says so, not that it wants some', async () => {
    const proxy = await listenLocally((_req, res) => res.writeHead(407).end());
    proxy.server.on('connect', (_req, socket) => {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
    });
    closers.push(() => proxy.close());
    const run = await runCli(
      ['--target', profileFile('wrong-proxy-credentials', 'https://api.example.invalid/v1')],
      {
        env: {
          HTTPS_PROXY: proxy.origin.replace('http://', 'http://gate:wrong-pass-8Qm@'),
          NO_PROXY: '',
          no_proxy: '',
        },
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /answered CONNECT with 407 Proxy Authentication Required \(it refused the credentials the proxy URL gives\)/,
    );
    expect(run.stderr).not.toContain('wrong-pass-8Qm');
  });

  it('honours NO_PROXY: a listed host is reached directly', async () => {
    let proxied = 0;
    const proxy = await listenLocally((_req, res) => {
      proxied++;
      res.writeHead(502).end();
    });
    closers.push(() => proxy.close());
    const run = await runCli(
      ['--target', profileFile('no-proxy', `${counted.origin}/v1`), '--rules', 'WS-1', '--depth', '2'],
      { env: { HTTP_PROXY: proxy.origin, NO_PROXY: '127.0.0.1' } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(proxied).toBe(0);
  });

  it.skipIf(!existsSync('/usr/bin/openssl'))(
    'a TLS certificate from an unknown CA is one line naming NODE_EXTRA_CA_CERTS, and with it set the run passes (skipped without openssl)',
    async () => {
      const key = join(dir, 'key.pem');
      const cert = join(dir, 'cert.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '2',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const upstream = new URL(sandbox.baseUrl).origin;
      const tls = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) =>
        forwardTo(upstream, req, res),
      );
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise<void>((resolve) => tls.close(() => resolve())));
      const address = tls.address();
      const baseUrl = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
      const file = profileFile('private-ca', baseUrl);

      const untrusted = await runCli(['--target', file, '--rules', 'WS-1', '--depth', '2']);
      expect(untrusted.code).toBe(2);
      expect(untrusted.stderr).toMatch(
        /^conformance: preflight: cannot reach https:\/\/127\.0\.0\.1:\d+\/v1: TLS: the target's certificate is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\); .*set NODE_EXTRA_CA_CERTS.* No rule was run\.$/m,
      );

      const trusted = await runCli(['--target', file, '--rules', 'WS-1', '--depth', '2'], {
        env: { NODE_EXTRA_CA_CERTS: cert },
      });
      expect(trusted.code, trusted.stdout).toBe(0);
    },
  );
});
