/** A route of the table: its value and the names of its path parameters in order. */
interface RouteNode<T> {
  readonly literals: Map<string, RouteNode<T>>;
  parameter: { readonly name: string; readonly node: RouteNode<T> } | undefined;
  readonly methods: Map<string, T>;
}

export type RouteMatch<T> =
  | { readonly kind: 'found'; readonly value: T; readonly pathParameters: Readonly<Record<string, string>> }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'bad-path'; readonly detail: string };

const NOT_FOUND = { kind: 'not-found' } as const;

/**
 * Matches `METHOD /base/...` against path templates (`/a/{id}/b`) segment by segment, built
 * once: a literal segment beats a parameter, parameters never match an empty segment.
 */
export class RouteTable<T> {
  private readonly root: RouteNode<T> = newNode();

  constructor(private readonly basePath: string) {}

  add(method: string, template: string, value: T): void {
    let node = this.root;
    for (const segment of template.split('/').slice(1)) {
      const parameter = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (parameter !== undefined) {
        if (node.parameter && node.parameter.name !== parameter) {
          throw new Error(
            `Route ${template}: parameter {${parameter}} clashes with {${node.parameter.name}}`,
          );
        }
        node.parameter ??= { name: parameter, node: newNode() };
        node = node.parameter.node;
      } else {
        let next = node.literals.get(segment);
        if (!next) {
          next = newNode();
          node.literals.set(segment, next);
        }
        node = next;
      }
    }
    if (node.methods.has(method)) throw new Error(`Route ${method} ${template} is defined twice`);
    node.methods.set(method, value);
  }

  match(method: string, pathname: string): RouteMatch<T> {
    const base = this.basePath;
    if (!pathname.startsWith(base) || pathname.charCodeAt(base.length) !== 47 /* / */) return NOT_FOUND;
    let node = this.root;
    let parameters: Record<string, string> | undefined;
    let start = base.length + 1;
    for (;;) {
      const slash = pathname.indexOf('/', start);
      const segment = slash === -1 ? pathname.slice(start) : pathname.slice(start, slash);
      const literal = node.literals.get(segment);
      if (literal) {
        node = literal;
      } else if (node.parameter && segment !== '') {
        let decoded = segment;
        if (segment.includes('%')) {
          try {
            decoded = decodeURIComponent(segment);
          } catch {
            return { kind: 'bad-path', detail: 'The request path is not valid percent-encoding (UTF-8).' };
          }
        }
        parameters ??= {};
        parameters[node.parameter.name] = decoded;
        node = node.parameter.node;
      } else {
        return NOT_FOUND;
      }
      if (slash === -1) break;
      start = slash + 1;
    }
    if (node.methods.size === 0) return NOT_FOUND;
    const value = node.methods.get(method);
    if (value === undefined) return { kind: 'method-not-allowed', allowed: [...node.methods.keys()] };
    return { kind: 'found', value, pathParameters: parameters ?? {} };
  }
}

function newNode<T>(): RouteNode<T> {
  return { literals: new Map(), parameter: undefined, methods: new Map() };
}
