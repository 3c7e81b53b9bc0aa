/**
 * Any text shaped as the document's tokens (a `svc_prod_key_` or `svc_dev_key_` prefix, in any
 * letter case, then RFC 6750 token characters, with `%` and `\` for encoded and escaped ones) is a
 * token, whoever's it is: a gateway that puts another caller's token in an error, or echoes one
 * the caller never sent, must not have it written to a log. The bare prefix (documentation,
 * messages) is no token.
 */
const TOKEN_SHAPE = /(svc_(?:prod|dev)_key_)[A-Za-z0-9\-._~+/=%\\]+/gi;
const HOLDS_TOKEN_SHAPE = /svc_(?:prod|dev)_key_[A-Za-z0-9\-._~+/=%\\]/i;

/**
 * Runs of base64 (either alphabet) long enough to encode a prefix and a character: such a run is
 * masked whole when, decoded from any of its first four characters, it holds a token shape (a
 * Basic credential, an encoded blob).
 */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

/** The bytes a base64 run spells, as latin1 text (`atob`: browsers and Node alike). */
function decoded(run: string): string {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  // Forgiving base64 refuses a length of 4n + 1: its last character holds no whole byte.
  try {
    return atob(standard.length % 4 === 1 ? standard.slice(0, -1) : standard);
  } catch {
    return '';
  }
}

function encodesTokenShape(run: string): boolean {
  for (let offset = 0; offset < 4; offset++)
    if (HOLDS_TOKEN_SHAPE.test(decoded(run.slice(offset)))) return true;
  return false;
}

/**
 * `text` with every token-shaped run replaced by its prefix and `mask`, and every base64 run that
 * encodes one replaced by `mask`.
 */
export function maskTokenShapes(text: string, mask: string): string {
  return text
    .replace(TOKEN_SHAPE, (_token, prefix: string) => `${prefix}${mask}`)
    .replace(BASE64_RUN, (run) => (encodesTokenShape(run) ? mask : run));
}
