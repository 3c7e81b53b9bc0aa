import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument, type OperationEntry, operationCatalogue } from '@cloud-api/spec';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../src/buildSite.js';
import { navigationEntries, referenceEntry } from '../src/siteNavigation.js';
import { type RunningStaticServer, startStaticServer } from '../src/staticServer.js';

// Opens the built site in Debian's headless Chromium, reaches every guide and every operation
// by clicking through the navigation from the home page, and fails on any request that leaves
// the machine: the site must render offline.
const CHROMIUM_PATH = '/usr/bin/chromium';
const docsDir = fileURLToPath(new URL('..', import.meta.url));
const siteDir = join(docsDir, 'site');
const screenshotDir = join(docsDir, 'reports', 'screenshots');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Schemes that never reach the network. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);

let server: RunningStaticServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const requestedUrls: string[] = [];
const externalRequests: string[] = [];

function isLocal(url: string): boolean {
  const parsed = new URL(url);
  return LOCAL_SCHEMES.has(parsed.protocol) || LOCAL_HOSTS.has(parsed.hostname);
}

// vitest's expect has no Playwright matchers; this waits like Playwright's `toBeVisible`.
function expectVisible(locator: ReturnType<Page['locator']>): Promise<void> {
  return locator.filter({ visible: true }).first().waitFor({ state: 'visible', timeout: 10_000 });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function openHome(): Promise<void> {
  await page.goto(server.url, { waitUntil: 'load' });
  await expectVisible(page.locator('nav.site-nav'));
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium); ` +
        'the docs browser test needs it and does not download browsers.',
    );
  }
  // Always the site of the current sources, whatever an earlier build left behind.
  buildSite(siteDir);
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
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // Every request is recorded; one for another host is answered with a failure and listed.
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requestedUrls.push(url);
    if (isLocal(url)) await route.continue();
    else {
      externalRequests.push(url);
      await route.abort('blockedbyclient');
    }
  });
  context.on('request', (request) => {
    if (!isLocal(request.url()) && !externalRequests.includes(request.url()))
      externalRequests.push(request.url());
  });
  page = await context.newPage();
  mkdirSync(screenshotDir, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('docs site in headless Chromium', () => {
  it('reaches every guide by clicking its link in the sidebar of the home page', async () => {
    const entries = navigationEntries().filter((entry) => entry.href.startsWith('guides/'));
    expect(entries.length).toBeGreaterThanOrEqual(8);
    for (const entry of entries) {
      await openHome();
      await page.locator('nav.site-nav').getByRole('link', { name: entry.title, exact: true }).click();
      await page.waitForURL(`**/${entry.href}`);
      const heading = (await page.locator('main h1').first().textContent())?.trim() ?? '';
      expect(heading, `guide ${entry.href} has a title`).not.toBe('');
      // Every guide page carries the whole navigation, itself marked as the current page.
      const navLinks = page.locator('nav.site-nav li a');
      expect(await navLinks.count()).toBe(navigationEntries().length);
      expect(await page.locator('nav.site-nav a[aria-current="page"]').textContent()).toBe(entry.title);
    }
  });

  it('renders the unspecified guide with the gap and assumption tables of the bundled spec', async () => {
    await openHome();
    await page
      .locator('nav.site-nav')
      .getByRole('link', { name: 'What the document leaves unspecified' })
      .click();
    await expectVisible(page.locator('table code#NS-OPERATION-POLL-PATH'));
    await expectVisible(page.locator('table code#A-WORKSPACE-ID-STATUS'));
    const document = loadOpenApiDocument();
    expect(await page.locator('table code[id^="NS-"]').count()).toBe(document['x-not-shown'].length);
    expect(await page.locator('table code[id^="A-"]').count()).toBe(document['x-assumptions'].length);
    await page.screenshot({ path: join(screenshotDir, 'guide-unspecified.png'), fullPage: false });
  });

  it('reaches every operation of the reference by clicking from the home page', async () => {
    const operations: readonly OperationEntry[] = operationCatalogue(loadOpenApiDocument());
    expect(operations).toHaveLength(8);
    for (const operation of operations) {
      await openHome();
      await page
        .locator('nav.site-nav')
        .getByRole('link', { name: referenceEntry.title, exact: true })
        .click();
      await page.waitForURL(`**/${referenceEntry.href}*`);
      // Redoc's sidebar: the operation's tag first, then the operation under it.
      await page.getByRole('link', { name: operation.tag, exact: true }).first().click();
      const operationLink = page
        .getByRole('link', {
          name: new RegExp(`^${escapeRegExp(operation.summary)}\\s*${operation.method}$`, 'i'),
        })
        .first();
      await operationLink.click();
      await page.waitForURL(new RegExp(`#/.+/${operation.operationId.toLowerCase()}`));
      // Redoc's headings hold a hidden anchor link, so they are matched by their text.
      const summaryPattern = new RegExp(`^\\s*${escapeRegExp(operation.summary)}\\s*$`);
      await expectVisible(page.locator('h1, h2').filter({ hasText: summaryPattern }));
      await expectVisible(page.getByText(operation.path, { exact: true }));
    }
    await page.screenshot({ path: join(screenshotDir, 'reference-operation.png') });
  });

  it('reaches a guide from the top bar of the reference page', async () => {
    await openHome();
    await page.locator('nav.site-nav').getByRole('link', { name: referenceEntry.title, exact: true }).click();
    await page.waitForURL(`**/${referenceEntry.href}*`);
    await page.screenshot({ path: join(screenshotDir, 'reference.png') });
    await page.locator('nav.site-topbar').getByRole('link', { name: 'Authentication', exact: true }).click();
    await page.waitForURL('**/guides/authentication.html');
    expect(await page.locator('main h1').textContent()).toBe('Authentication');
    await page.screenshot({ path: join(screenshotDir, 'guide-authentication.png') });
  });

  it('sent no request outside localhost, and did send the local ones', () => {
    expect(requestedUrls.some((url) => url.includes('/reference/index.html'))).toBe(true);
    expect(externalRequests).toEqual([]);
  });

  it('saved the screenshots of the reference and of a guide', () => {
    for (const name of ['reference.png', 'reference-operation.png', 'guide-authentication.png']) {
      const file = join(screenshotDir, name);
      expect(existsSync(file), `${file} exists`).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(10_000);
    }
  });
});
