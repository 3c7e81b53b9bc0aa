// Traces the facts of the API document to the bundled spec: the document's own tables are
// parsed here, so a fact that does not reach the spec (or reaches it wrong) fails a test.
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument, operationCatalogue, resolveLocalRef } from '../src/index.js';
import { apiDocument, backticked, section, table } from './apiDocument.js';

const doc = loadOpenApiDocument();
const catalogue = operationCatalogue(doc);
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };
const schema = (name: string): Schema => {
  const found = doc.components.schemas[name] as Schema | undefined;
  if (!found) throw new Error(`No component schema ${name}`);
  return found;
};
const deref = (s: Schema): Schema => resolveLocalRef<Schema>(doc, s);

/** The spec's reading of a document type cell, e.g. `datetime` or `enum`. */
function specType(property: Schema): string {
  const p = deref(property);
  if (p.$ref) return String(p.$ref);
  if ('$ref' in property) {
    const name = String((property as { $ref: string }).$ref)
      .split('/')
      .pop();
    if (name === 'BackupPolicySchedule') return 'BackupPolicySchedule';
  }
  if (p.format === 'date-time') return 'datetime';
  if (p.enum) return 'enum';
  const type = Array.isArray(p.type) ? p.type.filter((t) => t !== 'null')[0] : p.type;
  if (type === 'object' && p.additionalProperties === true) return 'map from string to any';
  return String(type);
}
const nullable = (property: Schema): boolean => {
  const p = deref(property);
  return Array.isArray(p.type) && p.type.includes('null');
};

const resourceTables: [heading: string, schemaName: string][] = [
  ['Operation acceptance record (returned with 202 by asynchronous VM operations)', 'OperationAcceptance'],
  ['Backup policy (GPU VM)', 'BackupPolicy'],
  ['BackupPolicySchedule', 'BackupPolicySchedule'],
  ['NAT port-forwarding rule', 'NatPortForwardingRule'],
  ['Snapshot or backup restore (cloud VM)', 'CloudVmRestore'],
];

describe.each(resourceTables)('resource "%s" is the component schema %s', (heading, schemaName) => {
  const rows = table(section(heading));
  const s = schema(schemaName);

  it('has exactly the documented fields', () => {
    expect(Object.keys(s.properties ?? {}).sort()).toEqual(rows.map((r) => r.Field).sort());
  });

  it.each(rows.map((r) => [r.Field as string, r] as const))(
    'field %s has the documented type, presence, nullability, enum and default',
    (field, row) => {
      const property = s.properties?.[field] as Schema;
      const required = row.Required ?? '';
      expect(s.required?.includes(field) ?? false, 'required').toBe(required.startsWith('yes'));
      expect(nullable(property), 'nullable').toBe(required.includes('nullable'));
      const docType = (row.Type ?? '').replace(/\s*\(.*\)$/, '');
      expect(specType(property), 'type').toBe(docType);
      const notes = [row.Notes, row['Default / notes']].filter(Boolean).join(' ');
      const p = deref(property);
      if (docType === 'enum') {
        expect(p.enum, 'enum values').toEqual(backticked(notes.replace(/default `[^`]*`;?/, '')));
      }
      const defaultCell = row.Default ?? /default ([^;]+)/.exec(notes)?.[1] ?? '';
      const expectedDefault = parseDefault(defaultCell);
      expect(p.default, 'default').toEqual(expectedDefault);
    },
  );
});

/** The document writes defaults as `tcp`, 20, true, UTC, "empty string", "none", "none stated". */
function parseDefault(cell: string): unknown {
  const text = cell.trim();
  if (text === '' || text === 'none' || text === 'none stated') return undefined;
  if (text === 'empty string') return '';
  const ticked = backticked(text)[0];
  const raw = ticked ?? text;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

describe('the acceptance record reports `accepted`', () => {
  it('types status as the document does (a string) and says a fresh acceptance reports accepted', () => {
    const status = deref(schema('OperationAcceptance').properties?.status as Schema) as Schema & {
      examples?: unknown[];
    };
    // Only a fresh acceptance is shown to report `accepted`: a retry's record is not bound to it.
    expect(status.type).toBe('string');
    expect(status.const).toBeUndefined();
    expect(status.description).toContain('A freshly accepted operation reports `accepted`');
    expect(status.examples).toEqual(['accepted']);
  });
});

describe('request bodies', () => {
  it('enable backups: every documented field, all optional, with the documented defaults', () => {
    const rows = table(section('Enable GPU VM backups'));
    const s = schema('EnableGpuVmBackupsRequest');
    expect(Object.keys(s.properties ?? {}).sort()).toEqual(rows.map((r) => r.Field).sort());
    expect(s.required ?? []).toEqual([]);
    for (const row of rows) {
      expect(deref(s.properties?.[row.Field as string] as Schema).default, row.Field).toEqual(
        parseDefault(row.Default ?? ''),
      );
    }
  });

  it('update NAT rule: every documented field, all optional, with the documented enums', () => {
    const rows = table(section('Update NAT port-forwarding rule'));
    const s = schema('UpdateNatPortForwardingRuleRequest');
    expect(Object.keys(s.properties ?? {}).sort()).toEqual(rows.map((r) => r.Field).sort());
    expect(s.required ?? []).toEqual([]);
    for (const row of rows) {
      const p = deref(s.properties?.[row.Field as string] as Schema);
      if (row.Type === 'enum') expect(p.enum, row.Field).toEqual(backticked(row['Allowed values'] ?? ''));
      else expect(p.type, row.Field).toBe(row.Type);
    }
  });

  it('create cloud VM: the documented fields with their types, none required', () => {
    const line = /Request body fields: (.*)\./.exec(section('Create cloud VM'))?.[1] ?? '';
    const fields = [...line.matchAll(/`(\w+)` \((\w+)/g)].map((m) => [m[1], m[2]]);
    expect(fields.length).toBe(7);
    const s = schema('CreateCloudVmRequest');
    expect(Object.keys(s.properties ?? {}).sort()).toEqual(fields.map(([f]) => f).sort());
    for (const [field, type] of fields)
      expect(deref(s.properties?.[field as string] as Schema).type, field).toBe(type);
    expect(s.required).toBeUndefined();
  });

  it('billing preflight: sku_code (string) in, boolean `allowed` out', () => {
    expect(deref(schema('BillingEligibilityRequest').properties?.sku_code as Schema).type).toBe('string');
    const decision = schema('BillingEligibilityDecision');
    expect(decision.required).toEqual(['allowed']);
    expect(deref(decision.properties?.allowed as Schema).type).toBe('boolean');
  });

  it('errors: a JSON object with a string `detail`', () => {
    const error = schema('ErrorDetail');
    expect(error.required).toEqual(['detail']);
    expect(deref(error.properties?.detail as Schema).type).toBe('string');
  });
});

describe('endpoints', () => {
  const rows = table(section('Summary of specified endpoints'));

  it('has exactly the 8 specified operations', () => {
    expect(rows).toHaveLength(8);
    expect(catalogue).toHaveLength(8);
  });

  it.each(rows.map((r) => [r.Operation as string, r] as const))(
    '%s: method, path, scope and success status',
    (_name, row) => {
      const op = catalogue.find((o) => o.path === row.Path && o.method === row.Method?.toLowerCase());
      expect(op, `${row.Method} ${row.Path}`).toBeDefined();
      expect(op?.summary).toBe(row.Operation);
      expect(op?.scope).toBe(backticked(row.Scope ?? '')[0] ?? (row.Scope ?? '').split(' ')[0]);
      const documented = /^(\d{3})\b/.exec(row.Success ?? '')?.[1];
      // Where the table names no status, the spec assumes 200 (A-SUCCESS-STATUS-UNNUMBERED).
      expect(op?.successStatus).toBe(documented ? Number(documented) : 200);
    },
  );

  it('every operation has the bearer requirement with its scope, in `x-scope` too', () => {
    for (const op of catalogue) {
      const raw = doc.paths[op.path]?.[op.method] as { security: Record<string, string[]>[] };
      expect(raw.security, op.operationId).toEqual([{ bearerAuth: [op.scope] }]);
    }
  });

  const errorLists: [heading: string, operationId: string][] = [
    ['Enable GPU VM backups', 'enableGpuVmBackups'],
    ['Delete GPU VM', 'deleteGpuVm'],
    ['Get cloud VM snapshot restore', 'getCloudVmSnapshotRestore'],
    ['Update NAT port-forwarding rule', 'updateNatPortForwardingRule'],
    ['Release reserved IP', 'releaseReservedIp'],
  ];
  it.each(errorLists)(
    '%s lists exactly the documented error statuses (plus the 4XX range)',
    (heading, operationId) => {
      const listed =
        /Errors: ([\d, ]+)\./
          .exec(section(heading))?.[1]
          ?.split(',')
          .map((s) => s.trim()) ?? [];
      expect(listed.length).toBeGreaterThan(0);
      const op = catalogue.find((o) => o.operationId === operationId);
      const errorKeys = op?.responseKeys.filter((k) => /^[45]/.test(k) && k !== '4XX');
      expect(errorKeys?.sort()).toEqual(listed.sort());
    },
  );

  it('operations whose errors the document does not list answer 401, 403 and the 4XX range', () => {
    for (const id of ['checkResourceEligibility', 'listBuckets', 'createCloudVm']) {
      const keys = catalogue.find((o) => o.operationId === id)?.responseKeys.filter((k) => /^[45]/.test(k));
      expect(keys?.sort(), id).toEqual(['401', '403', '4XX']);
    }
  });

  it('every operation takes the required workspace_id (positive decimal integer) and its path parameters as required strings', () => {
    const positive = new RegExp(
      resolveLocalRef<{ schema: { pattern: string } }>(doc, { $ref: '#/components/parameters/WorkspaceId' })
        .schema.pattern,
    );
    for (const value of ['1', '42', '1042', '9000000000000000000000'])
      expect(positive.test(value), value).toBe(true);
    for (const value of ['0', '000', '-1', '+1', '1.5', '1e3', ' 1', '', 'abc', '١٢'])
      expect(positive.test(value), value).toBe(false);
    for (const op of catalogue) {
      const raw = doc.paths[op.path]?.[op.method] as { parameters: { $ref: string }[] };
      const params = raw.parameters.map((p) =>
        resolveLocalRef<{ name: string; in: string; required: boolean; schema: { type: string } }>(doc, p),
      );
      expect(
        params.find((p) => p.name === 'workspace_id' && p.in === 'query')?.required,
        op.operationId,
      ).toBe(true);
      for (const name of op.pathParameters) {
        const p = params.find((x) => x.name === name && x.in === 'path');
        expect(p?.required && p.schema.type, `${op.operationId} ${name}`).toBe('string');
      }
    }
  });

  it('X-Idempotency-Key is required exactly on VM create and VM delete, which are async 202 operations', () => {
    expect(
      catalogue
        .filter((o) => o.idempotencyKeyRequired)
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(['createCloudVm', 'deleteGpuVm']);
    expect(
      catalogue
        .filter((o) => o.async)
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(['createCloudVm', 'deleteGpuVm']);
    for (const op of catalogue.filter((o) => o.async)) expect(op.successStatus).toBe(202);
  });

  it('create cloud VM is the one billable create', () => {
    expect(catalogue.filter((o) => o.billableCreate).map((o) => o.operationId)).toEqual(['createCloudVm']);
  });
});

describe('authentication', () => {
  const scheme = doc.components.securitySchemes.bearerAuth as Record<string, unknown>;

  it('bearer scheme', () => {
    expect(scheme.type).toBe('http');
    expect(scheme.scheme).toBe('bearer');
  });

  it('all 16 scopes, each with the documented permission', () => {
    const rows = table(section('Scopes'));
    expect(rows).toHaveLength(16);
    expect(scheme['x-scopes']).toEqual(Object.fromEntries(rows.map((r) => [r.Scope, r.Permission])));
  });

  it('both workspace policies', () => {
    const rows = table(section('Workspace policies'));
    expect(Object.values(scheme['x-workspace-policies'] as object)).toEqual(rows.map((r) => r.Behavior));
  });

  it('token prefixes bound to their environments, and a server per environment ending in /v1', () => {
    expect(apiDocument).toContain('Production tokens start with `svc_prod_key_`');
    expect(apiDocument).toContain('Development tokens start with `svc_dev_key_`');
    expect(scheme['x-token-prefixes']).toEqual({ svc_prod_key_: 'production', svc_dev_key_: 'development' });
    expect(doc.servers.map((s) => [s['x-environment'], s['x-token-prefix']])).toEqual([
      ['production', 'svc_prod_key_'],
      ['development', 'svc_dev_key_'],
    ]);
    for (const server of doc.servers) expect(server.url.endsWith('/v1'), server.url).toBe(true);
  });
});

describe('product areas', () => {
  it('a tag for each of the 12 product areas; areas with no specified endpoint say so', () => {
    const areas = table(section('What the service does')).map((r) => r['Product area']);
    expect(doc.tags.map((t) => t.name)).toEqual(areas);
    const used = new Set(catalogue.map((o) => o.tag));
    for (const tag of doc.tags.filter((t) => !used.has(t.name))) {
      expect(tag.description, tag.name).toMatch(/not shown/);
    }
  });
});
