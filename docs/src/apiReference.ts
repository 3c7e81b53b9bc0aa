import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTopBar } from './pageLayout.js';
import { referenceEntry } from './siteNavigation.js';

const docsPackageDir = fileURLToPath(new URL('..', import.meta.url));
const redoclyEntry = join(docsPackageDir, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const templatePath = join(docsPackageDir, 'templates', 'reference.hbs');
const TOP_BAR_MARKER = '<!-- site:topbar -->';

// Redoc 3 shows "API docs by <Redocly logo>" in its sidebar and loads the logo from Redocly's
// CDN at run time, even with --inlineBundle. The site must render offline, so the logo becomes
// an inline SVG of the same words.
const REDOCLY_LOGO_URLS = [
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg',
  'https://cdn.redoc.ly/redoc/logo-mini.svg',
];
const OFFLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="16" viewBox="0 0 56 16"><text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044d4">Redocly</text></svg>',
)}`;

/** Resources a browser would fetch from elsewhere: script/link/img/iframe sources on other hosts. */
const EXTERNAL_RESOURCE =
  /<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\/(?!localhost|127\.0\.0\.1)[^"'\s>]+/gi;

export function findExternalResources(html: string): string[] {
  return [...html.matchAll(EXTERNAL_RESOURCE)].map((match) => match[0]);
}

/** Makes Redoc's output self-contained and checks that it is. */
export function makeReferenceOffline(html: string): string {
  let offline = html;
  for (const url of REDOCLY_LOGO_URLS) offline = offline.replaceAll(url, OFFLINE_LOGO);
  // The bundle also names icon CDNs, used only for icons a spec asks for by name (this one asks
  // for none); the browser test fails on any request that leaves localhost at run time.
  const leftovers = [
    ...findExternalResources(offline),
    ...REDOCLY_LOGO_URLS.filter((url) => offline.includes(url)),
  ];
  if (leftovers.length > 0) {
    throw new Error(`the API reference still loads from outside: ${leftovers.slice(0, 3).join(', ')}`);
  }
  return offline;
}

/** Builds the Redoc page of the bundled spec into `outFile`, with the site's top bar. */
export function buildApiReference(specYamlPath: string, outFile: string): void {
  if (!existsSync(specYamlPath)) {
    throw new Error(
      `bundled spec not found at ${specYamlPath}; run pnpm docs:build from the repository root (it bundles the spec first)`,
    );
  }
  if (!existsSync(redoclyEntry))
    throw new Error(`Redocly CLI not found at ${redoclyEntry}; run pnpm install`);
  const workDir = mkdtempSync(join(tmpdir(), 'docs-reference-'));
  try {
    const template = readFileSync(templatePath, 'utf8');
    if (!template.includes(TOP_BAR_MARKER))
      throw new Error(`${templatePath} lost its ${TOP_BAR_MARKER} marker`);
    const filledTemplate = join(workDir, 'reference.hbs');
    writeFileSync(filledTemplate, template.replace(TOP_BAR_MARKER, renderTopBar(referenceEntry.href)));
    const rawOut = join(workDir, 'reference.html');
    const result = spawnSync(
      process.execPath,
      [
        redoclyEntry,
        'build-docs',
        specYamlPath,
        '--inlineBundle',
        '--template',
        filledTemplate,
        '--title',
        'API reference · Cloud Infrastructure Public API',
        '-o',
        rawOut,
      ],
      {
        cwd: workDir,
        encoding: 'utf8',
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
          NO_COLOR: '1',
        },
      },
    );
    if (result.status !== 0 || !existsSync(rawOut)) {
      const output = `${result.stdout}\n${result.stderr}`
        .split('\n')
        .filter((line) => line.trim() && !/[║╔╚]/.test(line));
      throw new Error(`redocly build-docs failed:\n${output.slice(-10).join('\n')}`);
    }
    writeFileSync(outFile, makeReferenceOffline(readFileSync(rawOut, 'utf8')));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
