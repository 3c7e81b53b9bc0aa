import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { guideCatalogue, operationSlug } from '../src/siteNavigation.js';
import { type RunningStaticServer, startStaticServer } from '../src/staticServer.js';

// Each page-by-page test (about 130 pages, the TypeDoc reference included) has minutes, not
// vitest's default: on a loaded 2-core CI machine one pass takes one to two minutes.
// Opens the built site (turbo builds it before this test) in Debian's headless Chromium: crawls
// every internal link and fragment without JavaScript, loads every page at 375 px, runs axe-core
// on every page, exercises search, dark mode and the mobile menu, and fails on any request that
// leaves the machine: the site must work offline.
const CHROMIUM_PATH = '/usr/bin/chromium';
const docsDir = fileURLToPath(new URL('..', import.meta.url));
const siteDir = join(docsDir, 'site');
const screenshotDir = join(docsDir, 'reports', 'screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);

let server: RunningStaticServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const requestedUrls: string[] = [];
const externalRequests: string[] = [];
/** Every page the crawl reached, as a path below the site root (`guides/authentication.html`). */
let crawledPages: string[] = [];

function isLocal(url: string): boolean {
  const parsed = new URL(url);
  return LOCAL_SCHEMES.has(parsed.protocol) || LOCAL_HOSTS.has(parsed.hostname);
}

/** A browser context whose every request is recorded, and refused when it leaves the machine. */
async function newContext(options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requestedUrls.push(url);
    if (isLocal(url)) await route.continue();
    else {
      externalRequests.push(url);
      await route.abort('blockedbyclient');
    }
  });
  contexts.push(context);
  return context;
}

/** The HTML pages of the built site, as paths below its root. */
function builtPages(): string[] {
  return readdirSync(siteDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.html') && name !== '404.html')
    .map((name) => name.split('\\').join('/'))
    .sort();
}

function pageUrl(path: string): string {
  return new URL(path, server.url).href;
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly { readonly target: readonly unknown[] }[];
}

/**
 * Clicks `button` until `shown` is visible: VitePress serves static markup first, and a click that
 * lands before Vue has hydrated the page does nothing (on a loaded CI machine, seconds later).
 */
async function clickUntilShown(button: Locator, shown: Locator, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await button.click();
    try {
      await shown.waitFor({ state: 'visible', timeout: 2_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${JSON.stringify(violation.nodes.slice(0, 3).map((node) => node.target))}`,
    );
}

/**
 * The pages axe checks: every hand-written and spec-generated page, and the first page of each
 * kind TypeDoc writes (its pages of one kind share one template; all 100 would cost a minute).
 */
function axePages(): string[] {
  const kinds = new Map<string, string>();
  for (const path of crawledPages.filter((page) => page.startsWith('api/'))) {
    const kind = path.split('/').slice(0, -1).join('/') || path;
    if (!kinds.has(kind)) kinds.set(kind, path);
  }
  return [...crawledPages.filter((page) => !page.startsWith('api/')), ...kinds.values()];
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium); ` +
        'the docs browser test needs it and does not download browsers.',
    );
  }
  if (!existsSync(join(siteDir, 'index.html'))) {
    throw new Error(`no built site in ${siteDir}: run pnpm docs:build first (pnpm test builds it).`);
  }
  mkdirSync(screenshotDir, { recursive: true });
  server = await startStaticServer(siteDir);
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

describe('docs site in headless Chromium', () => {
  it('links to every page, and every internal link and fragment resolves, without JavaScript', async () => {
    const context = await newContext({ javaScriptEnabled: false, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const idsByPage = new Map<string, Set<string>>();
    const links: { from: string; to: string; fragment: string }[] = [];
    const queue = [''];
    const seen = new Set(queue);
    const broken: string[] = [];
    while (queue.length > 0) {
      const path = queue.shift() as string;
      const response = await page.goto(pageUrl(path));
      if (response?.status() !== 200) {
        broken.push(`${path}: HTTP ${response?.status()}`);
        continue;
      }
      const found = await page.evaluate(() => ({
        ids: Array.from(document.querySelectorAll('[id]'), (element) => element.id),
        hrefs: Array.from(
          document.querySelectorAll('a[href]'),
          (anchor) => (anchor as HTMLAnchorElement).href,
        ),
      }));
      const key = path === '' ? 'index.html' : path;
      idsByPage.set(key, new Set(found.ids));
      for (const href of found.hrefs) {
        const url = new URL(href);
        if (url.origin !== new URL(server.url).origin) continue;
        let target = url.pathname.slice(1);
        if (target === '' || target.endsWith('/')) target += 'index.html';
        links.push({ from: key, to: target, fragment: decodeURIComponent(url.hash.slice(1)) });
        if (target.endsWith('.html') && !seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    crawledPages = [...idsByPage.keys()].sort();
    for (const link of links) {
      if (!link.to.endsWith('.html')) {
        const status = (await page.request.get(pageUrl(link.to))).status();
        if (status !== 200) broken.push(`${link.from} → ${link.to}: HTTP ${status}`);
        continue;
      }
      const ids = idsByPage.get(link.to);
      if (ids === undefined) broken.push(`${link.from} → ${link.to}: not a page`);
      else if (link.fragment !== '' && !ids.has(link.fragment)) {
        broken.push(`${link.from} → ${link.to}#${link.fragment}: no such anchor`);
      }
    }
    expect([...new Set(broken)]).toEqual([]);
    expect(links.filter((link) => link.fragment !== '').length).toBeGreaterThan(50);
    // Every built page is reachable by links: no orphan a reader could only find by URL.
    expect(crawledPages).toEqual(builtPages());
  }, 240_000);

  it('shows every page at 375 px without horizontal scrolling of the page', async () => {
    expect(crawledPages.length).toBeGreaterThan(100);
    const context = await newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const tooWide: string[] = [];
    for (const path of crawledPages) {
      await page.goto(pageUrl(path), { waitUntil: 'load' });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 375) tooWide.push(`${path}: ${width} px`);
    }
    expect(tooWide).toEqual([]);
  }, 240_000);

  it('has no serious or critical axe-core violations (contrast included), light and dark', {
    timeout: 300_000,
  }, async () => {
    const context = await newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    for (const path of axePages()) {
      await page.goto(pageUrl(path), { waitUntil: 'load' });
      for (const violation of await seriousAxeViolations(page)) problems.push(`${path}: ${violation}`);
    }
    // Dark mode: the theme's own switch, then the pages of each kind again.
    await page.goto(pageUrl('index.html'));
    await page.evaluate(() => localStorage.setItem('vitepress-theme-appearance', 'dark'));
    for (const path of [
      'index.html',
      'guides/getting-started.html',
      'reference/create-cloud-vm.html',
      'api/client/classes/BillingBlockedError.html',
    ]) {
      await page.goto(pageUrl(path), { waitUntil: 'load' });
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      for (const violation of await seriousAxeViolations(page)) problems.push(`${path} (dark): ${violation}`);
    }
    expect(problems).toEqual([]);
  });

  it('highlights guide samples with Shiki, labels their language and offers a copy button', async () => {
    const context = await newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(pageUrl('guides/getting-started.html'));
    const block = page.locator('div[class*="language-ts"]').first();
    await block.waitFor();
    expect(await block.locator('span.lang').textContent()).toBe('ts');
    // Shiki colours tokens with inline styles; a plain <pre> would have none.
    expect(await block.locator('pre.shiki span[style*="--shiki-light"]').count()).toBeGreaterThan(10);
    await block.hover();
    await block.locator('button.copy').click();
    await page.locator('button.copy.copied').first().waitFor();
    await page.screenshot({ path: join(screenshotDir, 'guide.png') });
  });

  it('finds guides and reference operations with the local search', async () => {
    const context = await newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(pageUrl('index.html'));
    const input = page.locator('#localsearch-input');
    await clickUntilShown(page.locator('.VPNavBarSearch button'), input);
    await input.fill('idempotency key');
    const results = page.locator('.VPLocalSearchBox .results a');
    await results.first().waitFor();
    const hrefs = await results.evaluateAll((anchors) =>
      anchors.map((anchor) => (anchor as HTMLAnchorElement).href),
    );
    expect(hrefs.some((href) => href.includes('/guides/async-operations.html'))).toBe(true);
    expect(hrefs.some((href) => href.includes('/reference/'))).toBe(true);
  });

  it('opens the navigation from the menu button at 375 px and reaches a guide', async () => {
    const context = await newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(pageUrl('index.html'));
    await page.screenshot({ path: join(screenshotDir, 'home-375.png') });
    const guides = page.locator('.VPNavScreen').getByRole('link', { name: 'Guides', exact: true });
    await clickUntilShown(page.locator('button.VPNavBarHamburger'), guides);
    await guides.click();
    await page.waitForURL('**/guides/getting-started.html');
    // The sidebar collapses behind its own button on a phone, then lists every guide.
    await page.locator('.VPLocalNav button.menu').click();
    for (const guide of guideCatalogue) {
      await page.locator('.VPSidebar').getByRole('link', { name: guide.title, exact: true }).waitFor();
    }
  });

  it('links each guide to the next one and back', async () => {
    const context = await newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    for (const [index, guide] of guideCatalogue.entries()) {
      await page.goto(pageUrl(`guides/${guide.slug}.html`));
      const next = guideCatalogue[index + 1];
      if (next) expect(await page.locator('.pager-link.next .title').textContent()).toBe(next.title);
      const previous = guideCatalogue[index - 1];
      if (previous) expect(await page.locator('.pager-link.prev .title').textContent()).toBe(previous.title);
      expect(
        await page.locator('.VPDocAsideOutline a').count(),
        `${guide.slug} has an outline`,
      ).toBeGreaterThan(0);
    }
  });

  it('renders every operation with its request line, scope and both request samples', async () => {
    const context = await newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const operations = operationCatalogue(loadOpenApiDocument());
    expect(operations).toHaveLength(8);
    for (const operation of operations) {
      await page.goto(pageUrl(`reference/${operationSlug(operation.operationId)}.html`));
      expect(await page.locator('h1').textContent()).toContain(operation.summary);
      expect(await page.locator('.operation-request code').textContent()).toBe(operation.path);
      await page.getByText(operation.scope, { exact: true }).first().waitFor();
      const samples = page.locator('.vp-code-group');
      expect(await samples.locator('.tabs label').allTextContents()).toEqual(['curl', '@cloud-api/client']);
    }
    await page.goto(pageUrl('reference/create-cloud-vm.html#request-samples'));
    await page.screenshot({ path: join(screenshotDir, 'reference-operation.png') });
    await page.goto(pageUrl('index.html'));
    await page.screenshot({ path: join(screenshotDir, 'home.png') });
  });

  it('serves the bundled spec for download, as YAML and as JSON', async () => {
    const context = await newContext({});
    const document = loadOpenApiDocument();
    for (const [file, parse] of [
      ['openapi.yaml', (text: string): unknown => parseYaml(text)],
      ['openapi.json', (text: string): unknown => JSON.parse(text)],
    ] as const) {
      const response = await context.request.get(pageUrl(file));
      expect(response.status()).toBe(200);
      expect(parse(await response.text())).toEqual(document);
    }
  });

  it('sent no request outside localhost, and did send the local ones', () => {
    expect(requestedUrls.some((url) => url.endsWith('/reference/create-cloud-vm.html'))).toBe(true);
    expect(externalRequests).toEqual([]);
  });

  it('saved the screenshots of the home page, a guide and a reference operation', () => {
    for (const name of ['home.png', 'guide.png', 'reference-operation.png', 'home-375.png']) {
      const file = join(screenshotDir, name);
      expect(existsSync(file), `${file} exists`).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(10_000);
    }
  });
});
