import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the bundled spec (JSON), built by `pnpm bundle` into `dist/`. */
export const openApiJsonPath: string = fileURLToPath(new URL('../dist/openapi.json', import.meta.url));
/** Absolute path of the bundled spec (YAML). */
export const openApiYamlPath: string = fileURLToPath(new URL('../dist/openapi.yaml', import.meta.url));
/** Absolute path of the copy of the API document this spec is written from. */
export const apiDocumentPath: string = fileURLToPath(new URL('../source/api-document.md', import.meta.url));

/** A gap the API document marks "not shown", quoted. */
export interface NotShown {
  readonly id: string;
  readonly section: string;
  readonly quote: string;
  /** `document` when the gap concerns the whole API rather than one spec object. */
  readonly scope?: 'document';
  /** True when the document implies the gap rather than saying "not shown". */
  readonly implied?: boolean;
}

/** A choice the spec made where the document is silent, and how conformance avoids depending on it. */
export interface Assumption {
  readonly id: string;
  readonly subject: string;
  readonly choice: string;
  readonly reason: string;
  readonly conformance: string;
}

/** The parts of an OpenAPI 3.1 document this project reads; the rest stays `unknown`. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  readonly servers: readonly OpenApiServer[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, unknown>>;
    readonly securitySchemes: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly [key: string]: unknown;
  };
  readonly tags: readonly { readonly name: string; readonly description?: string }[];
  readonly 'x-not-shown': readonly NotShown[];
  readonly 'x-assumptions': readonly Assumption[];
  readonly [key: string]: unknown;
}

export interface OpenApiServer {
  readonly url: string;
  readonly description?: string;
  readonly 'x-environment': 'production' | 'development';
  readonly 'x-token-prefix': string;
  readonly variables?: Readonly<Record<string, { readonly default: string; readonly description?: string }>>;
}

let cached: OpenApiDocument | undefined;

/**
 * Loads the bundled spec. Throws with the command to run when the bundle has not been built,
 * because every consumer needs the same fix.
 */
export function loadOpenApiDocument(): OpenApiDocument {
  if (cached) return cached;
  let text: string;
  try {
    text = readFileSync(openApiJsonPath, 'utf8');
  } catch {
    throw new Error(
      `The bundled spec is missing at ${openApiJsonPath}: run \`pnpm build\` (or \`pnpm --filter @cloud-api/spec bundle\`) first.`,
    );
  }
  cached = JSON.parse(text) as OpenApiDocument;
  return cached;
}

/** Follows a local `$ref` (`#/components/...`) of the bundled document; other values pass through. */
export function resolveLocalRef<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let hops = 0; hops < 16; hops++) {
    if (!current || typeof current !== 'object' || !('$ref' in current)) return current as T;
    const ref = (current as { $ref: unknown }).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/'))
      throw new Error(`Only local $refs are supported, got ${String(ref)}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
    if (current === undefined) throw new Error(`Unresolved $ref ${ref}`);
  }
  throw new Error('$ref chain too long');
}
