import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A check as declared in a property file: `ruleTest('WS-2', 'rejects ...', ...)`. */
export interface DeclaredCheck {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
}

export const propertySourceDir: string = fileURLToPath(new URL('../../src/properties/', import.meta.url));

/**
 * Checks the report adds from every check's traffic rather than from a property of their own
 * (src/suite/schemaAudit.ts): RESP-1 held to every answer the run saw.
 */
export const RUN_WIDE_CHECKS: readonly DeclaredCheck[] = [
  {
    rule: 'RESP-1',
    title:
      'RESP-1 every answer seen during the run validates against the spec schema for its operation and status',
    file: '(every answer of the run)',
  },
];

const DECLARATION = /ruleTest\(\s*'([^']*)',\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2/g;

/**
 * Scans the property files for declared checks (the rule ID is the first argument): the
 * TypeScript sources, or the compiled JavaScript where the package runs from `dist`.
 */
export function declaredChecks(dir: string = propertySourceDir): DeclaredCheck[] {
  const checks: DeclaredCheck[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => /\.property\.[jt]s$/.test(name))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const match of text.matchAll(DECLARATION)) {
      checks.push({
        rule: match[1] as string,
        title: `${match[1]} ${(match[3] as string).replace(/\\(.)/g, '$1')}`,
        file,
      });
    }
  }
  return [...checks, ...RUN_WIDE_CHECKS];
}

/** Test declarations that call vitest's `test`/`it` directly would escape the catalogue. */
export function undeclaredTests(dir: string = propertySourceDir): string[] {
  const problems: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.property.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (/\b(?:test|it)(?:\.\w+)?\(\s*['"`]/.test(text))
      problems.push(`${file} declares a test without ruleTest (no rule named)`);
  }
  return problems;
}
