/** A key or value that could be a token pasted in the wrong place: never echoed in a message. */
export const LOOKS_LIKE_TOKEN: RegExp = /svc_|key_/i;

/** A key as messages may show it: one that looks like a token is replaced by a description. */
export function printableKey(key: string): string {
  return LOOKS_LIKE_TOKEN.test(key) ? '(a key that looks like a token)' : key;
}

/** `parent.key`, in the notation of every message about a profile field. */
export function childField(parent: string, key: string): string {
  return parent ? `${parent}.${printableKey(key)}` : printableKey(key);
}
