import { type AnyNode, parse } from '@humanwhocodes/momoa';

/**
 * Member names in every object of a parsed JSON value: what the text holds when no name repeats.
 * A loop, not recursion: an answer may nest deeper than the stack.
 */
function memberCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (!Array.isArray(next)) count += children.length;
    for (const child of children) pending.push(child);
  }
  return count;
}

const SHOWN = 40;
const shown = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * Names an object of a JSON answer gives twice with different values (`{"status":"queued", …,
 * "status":"accepted"}`). RFC 8259 leaves such an object to the reader: JavaScript keeps the
 * last value, other parsers the first or an error, so the answer means one thing to the suite and
 * another to a client. The same value twice is read alike everywhere and is not named.
 *
 * `parsed` is the answer as JSON.parse read it. Every member name in the text ends in `"` then a
 * colon, so the text has at least as many `"…:` as members; when it has no more than the parsed
 * value has names, no name repeats, and the slow exact parse is skipped (almost every answer).
 */
export function conflictingMembers(text: string, parsed: unknown): string[] {
  const names = memberCount(parsed);
  const colonsAfterQuote = text.match(/"\s*:/g)?.length ?? 0;
  if (colonsAfterQuote <= names) return [];
  let root: AnyNode;
  try {
    root = parse(text, { ranges: true }).body;
  } catch {
    return [];
  }
  const conflicts: string[] = [];
  const pending: { node: AnyNode; path: string }[] = [{ node: root, path: '$' }];
  while (pending.length > 0) {
    const { node, path } = pending.pop() as { node: AnyNode; path: string };
    if (node.type === 'Array')
      for (const [i, element] of node.elements.entries())
        pending.push({ node: element.value, path: `${path}[${i}]` });
    if (node.type !== 'Object') continue;
    const first = new Map<string, string>();
    for (const member of node.members) {
      const name = member.name.type === 'String' ? member.name.value : member.name.name;
      const [start, end] = member.value.range ?? [0, 0];
      const value = text.slice(start, end);
      const earlier = first.get(name);
      if (earlier === undefined) first.set(name, value);
      else if (earlier !== value)
        conflicts.push(`${path}.${name} is given twice, as ${shown(earlier)} and ${shown(value)}`);
      pending.push({ node: member.value, path: `${path}.${name}` });
    }
  }
  return conflicts;
}
