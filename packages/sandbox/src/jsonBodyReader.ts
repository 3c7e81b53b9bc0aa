import type { IncomingMessage } from 'node:http';
import { type AnyNode, parse } from '@humanwhocodes/momoa';

export interface JsonBodyLimits {
  /** Largest body accepted, in bytes (413 above). */
  readonly maxBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  readonly maxDepth: number;
  /**
   * The body-first-json-value fault: read the first JSON value and ignore what follows it, as a
   * streaming decoder (Go's json.Decoder) does.
   */
  readonly firstValueOnly?: boolean;
  /**
   * The nat-rule-duplicate-member-first-validated fault: also read the body as a first-match
   * field lookup (gjson) does, where a name given twice keeps its first value.
   */
  readonly firstMemberWins?: boolean;
  /**
   * The nat-rule-port-float-kept fault: also name the top-level members whose number is written
   * with a fraction or an exponent, which Python's json keeps as floats.
   */
  readonly floatMembers?: boolean;
}

export type JsonBodyOutcome =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly firstMemberWins?: unknown;
      readonly floatMembers?: readonly string[];
    }
  | { readonly ok: false; readonly status: number; readonly detail: string; readonly malformedJson?: true };

/** Keys that could reach Object.prototype in careless merge code; refused in every body. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON request body: requires `Content-Type: application/json` (UTF-8), a bounded size,
 * valid UTF-8, valid JSON, bounded nesting and no prototype-polluting keys. Calls `done` once
 * (not at all if the client goes away).
 */
export function readJsonBody(
  request: IncomingMessage,
  limits: JsonBodyLimits,
  done: (outcome: JsonBodyOutcome) => void,
): void {
  const declaredLength = request.headers['content-length'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined ||
    (declaredLength !== undefined && declaredLength !== '0');
  if (!hasBody) {
    done({ ok: false, status: 400, detail: 'A JSON request body is required (send at least {}).' });
    return;
  }
  const typeProblem = contentTypeProblem(request.headers['content-type']);
  if (typeProblem) {
    done({ ok: false, status: 415, detail: typeProblem });
    return;
  }
  if (declaredLength !== undefined && Number(declaredLength) > limits.maxBytes) {
    done(tooLarge(limits));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limits.maxBytes) {
      finished = true;
      request.off('data', onData);
      request.off('end', onEnd);
      request.resume();
      done(tooLarge(limits));
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (finished) return;
    finished = true;
    done(parseJsonBody(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), limits));
  };
  request.on('data', onData);
  request.on('end', onEnd);
  request.on('error', () => {
    finished = true;
  });
}

function tooLarge(limits: JsonBodyLimits): JsonBodyOutcome {
  return {
    ok: false,
    status: 413,
    detail: `The request body is larger than ${limits.maxBytes} bytes; request bodies of this API are small JSON objects.`,
  };
}

function contentTypeProblem(header: string | undefined): string | undefined {
  if (header === undefined)
    return 'Missing Content-Type: send the body as JSON with "Content-Type: application/json".';
  const [mediaType = '', ...parameters] = header.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') {
    return `Unsupported Content-Type "${header.slice(0, 100)}": send the body as JSON with "Content-Type: application/json".`;
  }
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      return `Unsupported charset "${charset.slice(0, 40)}": JSON bodies must be UTF-8.`;
    }
  }
  return undefined;
}

export function parseJsonBody(bytes: Buffer, limits: JsonBodyLimits): JsonBodyOutcome {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, status: 400, detail: 'The request body is not valid UTF-8.' };
  }
  if (text.trim() === '')
    return { ok: false, status: 400, detail: 'A JSON request body is required (send at least {}).' };
  let value: unknown;
  try {
    value = limits.firstValueOnly ? firstValue(text) : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 160) : 'syntax error';
    return {
      ok: false,
      status: 400,
      detail: `The request body is not valid JSON: ${reason}.`,
      malformedJson: true,
    };
  }
  const problem = structureProblem(value, limits.maxDepth);
  if (problem) return { ok: false, status: 400, detail: problem };
  if (limits.firstMemberWins) return { ok: true, value, firstMemberWins: firstMemberValue(parse(text).body) };
  if (limits.floatMembers) return { ok: true, value, floatMembers: floatMembersOf(text) };
  return { ok: true, value };
}

/** The top-level members of a JSON object whose number is written with a fraction or an exponent. */
function floatMembersOf(text: string): string[] {
  const { body } = parse(text, { ranges: true });
  if (body.type !== 'Object') return [];
  return body.members.flatMap((member) => {
    const name = member.name.type === 'String' ? member.name.value : member.name.name;
    const [start, end] = member.value.range ?? [0, 0];
    return member.value.type === 'Number' && /[.eE]/.test(text.slice(start, end)) ? [name] : [];
  });
}

/** A parsed JSON document's value where a name given twice in an object keeps its first value. */
function firstMemberValue(node: AnyNode): unknown {
  switch (node.type) {
    case 'Object': {
      const value: Record<string, unknown> = {};
      for (const member of node.members) {
        const name = member.name.type === 'String' ? member.name.value : member.name.name;
        if (!Object.hasOwn(value, name)) value[name] = firstMemberValue(member.value);
      }
      return value;
    }
    case 'Array':
      return node.elements.map((element) => firstMemberValue(element.value));
    case 'Null':
      return null;
    case 'String':
    case 'Number':
    case 'Boolean':
      return node.value;
    default:
      return undefined;
  }
}

/** The first JSON value of `text`: the shortest prefix ending in } or ] that parses, else the whole. */
function firstValue(text: string): unknown {
  for (let end = 0; end < text.length; end++) {
    if (text[end] !== '}' && text[end] !== ']') continue;
    try {
      return JSON.parse(text.slice(0, end + 1));
    } catch {}
  }
  return JSON.parse(text);
}

/** Walks the parsed body without recursion: nesting depth and forbidden keys. */
function structureProblem(root: unknown, maxDepth: number): string | undefined {
  if (root === null || typeof root !== 'object') return undefined;
  const stack: { value: object; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: object; depth: number };
    if (depth > maxDepth) return `The request body nests deeper than ${maxDepth} levels.`;
    if (Array.isArray(value)) {
      for (const item of value)
        if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) {
        return `The request body contains the key "${key}", which is not allowed in any request; remove it.`;
      }
      const item = (value as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1 });
    }
  }
  return undefined;
}
