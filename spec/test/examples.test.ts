// Every example in the spec validates against its schema, so a Prism mock answers with records
// that obey the spec; and the check itself is shown to catch a wrong example.
import { describe, expect, it } from 'vitest';
import {
  createSchemaValidator,
  loadOpenApiDocument,
  type OpenApiDocument,
  resolveLocalRef,
} from '../src/index.js';

interface FoundExample {
  readonly where: string;
  readonly schema: object;
  readonly value: unknown;
}

type Node = Record<string, unknown>;

/** Every example of the spec with the schema it illustrates: media types, parameters and schemas. */
function collectExamples(doc: OpenApiDocument): FoundExample[] {
  const found: FoundExample[] = [];
  const mediaExamples = (where: string, content: unknown) => {
    for (const [type, media] of Object.entries((content ?? {}) as Record<string, Node>)) {
      for (const [name, example] of Object.entries((media.examples ?? {}) as Record<string, Node>)) {
        found.push({
          where: `${where} ${type} example "${name}"`,
          schema: media.schema as object,
          value: example.value,
        });
      }
      if ('example' in media)
        found.push({
          where: `${where} ${type} example`,
          schema: media.schema as object,
          value: media.example,
        });
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, rawOp] of Object.entries(item)) {
      const op = rawOp as Node;
      const label = `${method.toUpperCase()} ${path}`;
      const body = op.requestBody ? resolveLocalRef<Node>(doc, op.requestBody as Node) : undefined;
      mediaExamples(`${label} request`, body?.content);
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Node>)) {
        mediaExamples(`${label} ${status}`, resolveLocalRef<Node>(doc, response).content);
      }
      for (const raw of (op.parameters ?? []) as Node[]) {
        const p = resolveLocalRef<Node>(doc, raw);
        if ('example' in p)
          found.push({
            where: `${label} parameter ${String(p.name)}`,
            schema: p.schema as object,
            value: p.example,
          });
      }
    }
  }
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Node>)) {
    for (const [i, value] of ((schema.examples ?? []) as unknown[]).entries()) {
      found.push({
        where: `schema ${name} examples[${i}]`,
        schema: { $ref: `#/components/schemas/${name}` },
        value,
      });
    }
  }
  return found;
}

const doc = loadOpenApiDocument();
const validator = createSchemaValidator(doc);
const examples = collectExamples(doc);

describe('examples', () => {
  it('every request body, response body and parameter has at least one example', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, rawOp] of Object.entries(item)) {
        const op = rawOp as Node;
        const label = `${method.toUpperCase()} ${path}`;
        if (op.requestBody)
          expect(
            examples.some((e) => e.where.startsWith(`${label} request`)),
            `${label} request`,
          ).toBe(true);
        for (const [status, response] of Object.entries(op.responses as Record<string, Node>)) {
          if (resolveLocalRef<Node>(doc, response).content) {
            expect(
              examples.some((e) => e.where.startsWith(`${label} ${status} `)),
              `${label} ${status}`,
            ).toBe(true);
          }
        }
      }
    }
  });

  it.each(examples.map((e) => [e.where, e] as const))(
    '%s validates against its schema',
    (_where, example) => {
      const verdict = validator.validateSchema(example.schema, example.value);
      expect(verdict.errors).toEqual([]);
    },
  );

  it('catches an example edited to be wrong', () => {
    const wrongs: [string, (value: Node) => void][] = [
      [
        'acceptance record with a status that is not a string',
        (v) => {
          v.status = 1;
        },
      ],
      [
        'backup policy missing a required field',
        (v) => {
          delete v.policy_id;
        },
      ],
      [
        'NAT rule with an undocumented enum value',
        (v) => {
          v.protocol = 'icmp';
        },
      ],
      [
        'restore with a non-UTC timestamp',
        (v) => {
          v.started_at = '2026-11-21T09:31:12+02:00';
        },
      ],
    ];
    const byWhere = (needle: string) => {
      const e = examples.find((x) => x.where.includes(needle));
      if (!e) throw new Error(`no example ${needle}`);
      return e;
    };
    const targets = [
      byWhere('POST /compute/cloud-vms 202'),
      byWhere('backups/enable 200'),
      byWhere('port-forwarding-rules/{port_forwarding_rule_id} 200'),
      byWhere('restores/{restore_id} 200'),
    ];
    wrongs.forEach(([label, edit], i) => {
      const target = targets[i] as FoundExample;
      const value = structuredClone(target.value) as Node;
      edit(value);
      expect(validator.validateSchema(target.schema, value).valid, label).toBe(false);
    });
  });
});

describe('X-Idempotency-Key examples', () => {
  it('are one per operation, none shared: a create and a delete copied from the examples are no retry of each other', () => {
    const keys = examples.filter((e) => e.where.endsWith(' parameter X-Idempotency-Key'));
    expect(keys.map((e) => e.where.split(' parameter')[0])).toEqual([
      'POST /compute/cloud-vms',
      'DELETE /compute/gpu-vms/{vm_id}',
    ]);
    expect(new Set(keys.map((e) => e.value)).size).toBe(keys.length);
    // The schema allows any non-empty string: no maximum is invented (A-IDEMPOTENCY-KEY-LENGTH).
    for (const key of keys) {
      expect(validator.validateSchema(key.schema, '').valid).toBe(false);
      expect(validator.validateSchema(key.schema, 'k'.repeat(10_000)).valid).toBe(true);
    }
  });
});
