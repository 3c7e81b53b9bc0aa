import { readFileSync } from 'node:fs';
import { apiDocumentPath } from '../src/index.js';

/** The API document, read once for the tests that trace the spec back to it. */
export const apiDocument = readFileSync(apiDocumentPath, 'utf8');

/** The body of the markdown section whose heading is `heading` (up to the next heading of any level). */
export function section(heading: string): string {
  const lines = apiDocument.split('\n');
  const start = lines.findIndex(
    (line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '').trim() === heading,
  );
  if (start < 0) throw new Error(`No section "${heading}" in the API document`);
  const end = lines.findIndex((line, i) => i > start && /^#{2,4} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Rows of the first markdown table in `text`, keyed by the header cells. */
export function table(text: string): Record<string, string>[] {
  const rows = text
    .split('\n')
    .filter((line) => line.trim().startsWith('|'))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim()),
    );
  const [header, , ...body] = rows;
  if (!header) throw new Error('No table found');
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** The values written in backticks in a cell, e.g. "`tcp`, `udp`" → ["tcp", "udp"]. */
export function backticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}
