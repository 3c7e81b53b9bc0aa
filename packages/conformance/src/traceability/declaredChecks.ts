import { acceptanceRecordAudits } from '../checks/identifierAudit.js';
import { checkRegistry } from '../checks/registry.js';
import { SCHEMA_AUDIT_CHECK } from '../checks/schemaAudit.js';

/** A check as the traceability matrix lists it: its rule, its title and where it is declared. */
export interface DeclaredCheck {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
}

/**
 * Every check the suite runs, read from the check registry, and the run-wide audits (RESP-1's
 * schemas, ASYNC-4's identifiers) that the engine adds from every check's traffic.
 */
export function declaredChecks(): DeclaredCheck[] {
  return [
    ...checkRegistry.map((check) => ({
      rule: check.rule,
      title: check.title,
      file: `checks/${check.family}.ts`,
    })),
    SCHEMA_AUDIT_CHECK,
    ...acceptanceRecordAudits.map((audit) => audit.check),
  ];
}
