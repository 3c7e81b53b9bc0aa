import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../src/run/outcome.js';
import { type CliRun, runCli } from './runCli.js';

// The HTML report as a person meets it: the file of a failing sandbox run, opened from disk in
// Debian's headless Chromium (no browser download) on a 375 px phone. Nothing may be fetched, no
// error may reach the console, nothing may scroll sideways, and the failed rule, the exchange
// that shows it and its replay command (as the terminal printed it) must be on screen.
const CHROMIUM_PATH = '/usr/bin/chromium';
const FAULT = 'accept-unknown-token';
const screenshotDir = fileURLToPath(new URL('../reports/screenshots', import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let run: CliRun;
let out: string;
let reportUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const requested: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium); this test does not download browsers.`,
    );
  out = join(mkdtempSync(join(tmpdir(), 'conformance-html-')), 'reports');
  run = await runCli(
    [
      '--rules',
      'AUTH-2,WS-1',
      '--depth',
      '5',
      '--seed',
      '3',
      '--sandbox-fault',
      FAULT,
      '--reporter',
      'table,json,html',
      '--out',
      out,
    ],
    { timeoutMs: 90_000 },
  );
  reportUrl = pathToFileURL(join(out, 'conformance-report.html')).href;
  mkdirSync(screenshotDir, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 1 });
  // Every request is recorded; anything but the report file itself is refused.
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (url === reportUrl) await route.continue();
    else await route.abort('blockedbyclient');
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(reportUrl, { waitUntil: 'load' });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const horizontalOverflow = (): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the HTML report of a failing sandbox run, in Chromium at 375 px', () => {
  it('the run failed and named its report', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    expect(run.stdout).toContain(`HTML report: ${join(out, 'conformance-report.html')}`);
  });

  it('shows the verdict and the failed rule first', async () => {
    await expect(page.locator('header.verdict .badge.big').textContent()).resolves.toBe('FAILED');
    const failure = page.locator('article.failure').first();
    expect(await failure.isVisible()).toBe(true);
    expect(await failure.locator('h3').textContent()).toMatch(/^AUTH-2 FAIL AUTH-2 /);
    expect(await page.locator('header.verdict a[href="#rule-AUTH-2"]').isVisible()).toBe(true);
  });

  it("shows the exchange of the counterexample: method, URL, status, the answer's headers and body", async () => {
    const report = JSON.parse(readFileSync(join(out, 'conformance-report.json'), 'utf8')) as RunOutcome;
    const shown = report.tests.find((test) => test.rule === 'AUTH-2')?.failures[0];
    expect(shown?.request).toBeDefined();
    const exchange = page.locator('article.failure').first().locator('.exchange').first();
    expect(await exchange.isVisible()).toBe(true);
    const lines = await exchange.locator('p.line').allTextContents();
    expect(lines[0]).toBe(`${shown?.request?.method} ${shown?.request?.url}`);
    expect(lines[1]).toMatch(new RegExp(`^→ ${shown?.response?.status} `));
    const body = exchange.locator('pre').last();
    expect(await body.isVisible()).toBe(true);
    expect(await body.textContent()).toBe(shown?.response?.body || '(empty)');
  });

  it('shows the replay command exactly as the terminal printed it', async () => {
    const printed = [...run.stdout.matchAll(/^\s*replay: (.+)$/gm)].map((match) => match[1]);
    expect(printed.length).toBeGreaterThan(0);
    const replay = page.locator('article.failure').first().locator('.replay pre');
    expect(await replay.isVisible()).toBe(true);
    expect(printed).toContain(await replay.textContent());
    // The page's own script ran (the CSP let it): the copy button is there.
    expect(await page.locator('article.failure').first().locator('button.copy').isVisible()).toBe(true);
  });

  it('fetched nothing but itself, and logged no error', () => {
    expect(requested).toEqual([reportUrl]);
    expect(consoleErrors).toEqual([]);
  });

  it('does not scroll sideways at 375 px, with every section opened', async () => {
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(screenshotDir, 'html-report-375.png'), fullPage: true });
    await page.evaluate(() => {
      document.querySelectorAll('details').forEach((details) => {
        details.open = true;
      });
    });
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(screenshotDir, 'html-report-375-open.png'), fullPage: true });
  });

  it('opens every collapsed section for printing, and prints without the navigation', async () => {
    await page.reload({ waitUntil: 'load' });
    const closed = () => page.locator('details:not([open])').count();
    expect(await closed()).toBeGreaterThan(0);
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    expect(await closed()).toBe(0);
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    expect(await closed()).toBeGreaterThan(0);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('nav.toc').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
  });

  it('has no serious or critical accessibility problem (axe-core)', async () => {
    // axe is the test's script, not the page's: a page of its own lets it past the page's CSP.
    const fresh = await browser.newPage({ bypassCSP: true, viewport: { width: 375, height: 812 } });
    try {
      await fresh.goto(reportUrl, { waitUntil: 'load' });
      await fresh.addScriptTag({ content: axeSource });
      const violations = await fresh.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
        return (await axe.run()).violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map(
            (violation) =>
              `${violation.id}: ${JSON.stringify(violation.nodes.slice(0, 3).map((n) => n.target))}`,
          );
      });
      expect(violations).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly { readonly target: readonly unknown[] }[];
}
