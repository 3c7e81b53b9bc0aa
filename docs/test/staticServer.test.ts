import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSitePath, startStaticServer } from '../src/staticServer.js';

let root = '';

beforeAll(() => {
  const parent = mkdtempSync(join(tmpdir(), 'docs-static-'));
  root = join(parent, 'site');
  mkdirSync(join(root, 'guides'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<h1>home</h1>');
  writeFileSync(join(root, 'guides', 'a b.html'), '<h1>a b</h1>');
  writeFileSync(join(parent, 'secret.txt'), 'outside the site');
});

afterAll(() => {
  rmSync(join(root, '..'), { recursive: true, force: true });
});

describe('docs static server', () => {
  it('maps a directory to its index.html and decodes escaped names', () => {
    expect(resolveSitePath(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveSitePath(root, '/guides/a%20b.html?x=1')).toBe(join(root, 'guides', 'a b.html'));
  });

  it('never serves a file outside the site folder', () => {
    expect(resolveSitePath(root, '/../secret.txt')).toBeUndefined();
    expect(resolveSitePath(root, '/%2e%2e/secret.txt')).toBeUndefined();
    expect(resolveSitePath(root, '/guides/../../secret.txt')).toBeUndefined();
    expect(resolveSitePath(root, '/%E0%A4%A')).toBeUndefined();
  });

  it('answers 200 with a content type, 404 for a missing page and 405 for a write', async () => {
    const server = await startStaticServer(root);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const home = await fetch(server.url);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await home.text()).toBe('<h1>home</h1>');
      expect((await fetch(new URL('missing.html', server.url))).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
