import { maskTokenShapes } from '@cloud-api/client';

/**
 * The one redaction source of a run. Every value that came from a token field or from an
 * environment-variable expansion is a secret, whatever its length, and so is every token the
 * suite derives from one (ENV-1's prefix swap), and any text shaped as the document's tokens. Every writer (stdout, stderr, reports, replay
 * files, the created-resources log, error messages) passes its final text through `redact`.
 */
export interface SecretRedactor {
  /** Registers secrets; empty strings are ignored. */
  add(...secrets: readonly string[]): void;
  /** The text with every form of every secret replaced by the mask. */
  redact(text: string): string;
  /**
   * `redact(text)` cut to its first `limit` characters, without redacting all of a long text:
   * a target that answers megabytes costs a report what its head costs.
   */
  redactHead(text: string, limit: number): string;
  /** The raw secrets registered so far (to hand to another process of the run). */
  readonly secrets: readonly string[];
}

/**
 * Masks tried in order. A mask may not contain a secret form and may not begin or end with a
 * character of one, so a secret can neither hide inside a mask nor straddle one. None holds a
 * character that JSON, XML or a shell would treat specially.
 */
const MASK_CANDIDATES = [
  '[redacted]',
  '[REDACTED]',
  '***',
  '###',
  '~~~',
  '@@@',
  '^^^',
  '|||',
  '\u2588\u2588\u2588',
  '\u2591\u2591\u2591',
] as const;

/**
 * A token's random part (after its environment prefix) is also masked piece by piece: any run of
 * this many of its characters, as sent or reversed, so a target that echoes half a token (its
 * tail in an error) shows none of it. Only for bodies long enough that such a
 * piece is no ordinary text.
 */
const FRAGMENT_LENGTH = 8;
const FRAGMENT_SOURCE_MIN = 16;
const TOKEN_PREFIX = /^svc_(?:prod|dev)_key_/;

/**
 * A piece of two or fewer distinct characters (`00000000`, `xxxxxxxx`) tells nothing of a token
 * and is common filler: masking it would hide ordinary text and make every run of it a match. A
 * piece of digits only is ordinary text too: a duration, a timestamp or an id written in a report
 * holds it by chance (a hex tail often has eight digits in a row), and masking it inside a JSON
 * number made the HAR invalid JSON. The token itself, in every form, is masked whatever it holds.
 */
const identifying = (piece: string): boolean => new Set(piece).size > 2 && /\D/.test(piece);

/** The first two characters of a piece, as one number: most positions of a text are ruled out by it alone. */
const pairAt = (text: string, i: number): number => text.charCodeAt(i) * 65_536 + text.charCodeAt(i + 1);

/** Which character pairs start a piece: a table for ASCII pairs (a token's characters), a set for the rest. */
class PairStarts {
  private readonly ascii = new Uint8Array(128 * 128);
  private readonly other = new Set<number>();
  add(text: string, i: number): void {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    if (a < 128 && b < 128) this.ascii[a * 128 + b] = 1;
    else this.other.add(pairAt(text, i));
  }
  has(text: string, i: number): boolean {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    return a < 128 && b < 128 ? this.ascii[a * 128 + b] === 1 : this.other.has(pairAt(text, i));
  }
}

/** `text` with every run of characters made of `pieces` (all FRAGMENT_LENGTH long) replaced by `mask`. */
function maskPieces(
  text: string,
  pieces: { readonly all: ReadonlySet<string>; readonly starts: PairStarts },
  mask: string,
): string {
  let result = '';
  let copied = 0;
  let coveredTo = -1;
  let start = -1;
  for (let i = 0; i + FRAGMENT_LENGTH <= text.length; i++) {
    if (!pieces.starts.has(text, i) || !pieces.all.has(text.slice(i, i + FRAGMENT_LENGTH))) continue;
    if (i > coveredTo) {
      if (start >= 0) {
        result += `${text.slice(copied, start)}${mask}`;
        copied = coveredTo;
      }
      start = i;
    }
    coveredTo = i + FRAGMENT_LENGTH;
  }
  if (start < 0) return text;
  return `${result}${text.slice(copied, start)}${mask}${text.slice(coveredTo)}`;
}

/** Alignment-shifted base64 cores shorter than this would mask ordinary text; the exact encodings are always kept. */
const MIN_BASE64_CORE = 6;

/**
 * The characters of base64(filler + secret + anything) that depend only on the secret, for each
 * of the three alignments: what a secret looks like inside a longer base64 text (Basic
 * credentials, a JSON blob encoded by a target).
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters that mix in filler bits at the start, or bits past the secret at the end.
    const start = offset === 0 ? 0 : offset === 1 ? 2 : 3;
    const totalBits = (offset + bytes.length) * 8;
    const end = Math.floor(totalBits / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_BASE64_CORE) cores.push(core);
  }
  return cores;
}

function xmlEscaped(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** Re-encoded forms are made only of secrets this long: a shorter one could be ordinary text. */
const REENCODED_MIN = 8;

/**
 * What a target that re-encodes what it was sent can echo: the secret reversed, in one letter
 * case, every byte as %XX or hex, every character as a JSON `\uXXXX` escape or an HTML entity,
 * and as UTF-16 text (a NUL beside every character, raw or JSON-escaped).
 */
function reencodedForms(secret: string): string[] {
  const bytes = [...Buffer.from(secret, 'utf8')];
  const chars = [...secret];
  // Hex digits in either case (the rest of an escape keeps its own).
  const inBothCases = (write: (hex: (n: number, width: number) => string) => string): string[] =>
    [false, true].map((upper) =>
      write((n, width) => {
        const digits = n.toString(16).padStart(width, '0');
        return upper ? digits.toUpperCase() : digits;
      }),
    );
  const interleaved = (nul: string) => [
    chars.map((c) => `${c}${nul}`).join(''),
    chars.map((c) => `${nul}${c}`).join(''),
  ];
  return [
    [...chars].reverse().join(''),
    secret.toUpperCase(),
    secret.toLowerCase(),
    ...inBothCases((hex) => bytes.map((b) => `%${hex(b, 2)}`).join('')),
    ...inBothCases((hex) => bytes.map((b) => hex(b, 2)).join('')),
    ...inBothCases((hex) => [...secret].map((c) => `\\u${hex(c.charCodeAt(0), 4)}`).join('')),
    chars.map((c) => `&#${c.codePointAt(0)};`).join(''),
    ...inBothCases((hex) => chars.map((c) => `&#x${hex(c.codePointAt(0) ?? 0, 2)};`).join('')),
    ...interleaved('\u0000'),
    ...interleaved('\\u0000'),
  ];
}

/** Every way a secret can be written into an output: raw, URL-, JSON-, XML-escaped, base64, re-encoded. */
export function secretForms(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  const basic = Buffer.from(`${secret}:`).toString('base64');
  const forms = [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    xmlEscaped(secret),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
    basic,
    basic.replace(/=+$/, ''),
    ...base64Cores(secret),
    // Re-encoded, a short secret (a proxy password beside its user) could be ordinary text.
    ...(secret.length >= REENCODED_MIN ? reencodedForms(secret) : []),
  ];
  return [...new Set(forms.filter((form) => form.length > 0))];
}

function maskFor(forms: readonly string[]): string {
  const fits = (mask: string): boolean =>
    forms.every(
      (form) =>
        !mask.includes(form) && !form.includes(mask[0] as string) && !form.includes(mask.at(-1) as string),
    );
  for (const mask of MASK_CANDIDATES) if (fits(mask)) return mask;
  // Secrets that together use every candidate's characters: a private-use character cannot be in a token typed by a person.
  for (let code = 0xe000; code < 0xf8ff; code++) {
    const mask = String.fromCharCode(code).repeat(3);
    if (fits(mask)) return mask;
  }
  throw new Error('no mask can hide these secrets');
}

/**
 * A copy of a slice that holds no reference to the text it was cut from: V8 keeps the whole
 * parent of a slice alive, and a report holding the head of every 4 MB answer ran out of memory.
 * UTF-16 round-trips every code unit, a lone surrogate at the cut included.
 */
const detached = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');

export function createSecretRedactor(initial: readonly string[] = []): SecretRedactor {
  const secrets = new Set<string>();
  const pieces = { all: new Set<string>(), starts: new PairStarts() };
  let forms: string[] = [];
  let mask = MASK_CANDIDATES[0] as string;
  const redactor: SecretRedactor = {
    get secrets() {
      return [...secrets];
    },
    add(...added) {
      let changed = false;
      for (const secret of added) {
        if (typeof secret !== 'string' || secret.length === 0 || secrets.has(secret)) continue;
        secrets.add(secret);
        const body = TOKEN_PREFIX.test(secret) ? secret.replace(TOKEN_PREFIX, '') : '';
        // Pieces of the random part as sent and reversed: a target that echoes a tail reversed
        // (a debug message) shows no piece either. Not in another letter case: a token holding
        // a word would then mask that word in every environment variable's name.
        const echoed = body.length >= FRAGMENT_SOURCE_MIN ? [body, [...body].reverse().join('')] : [];
        for (const form of echoed)
          for (let i = 0; i + FRAGMENT_LENGTH <= form.length; i++) {
            const piece = form.slice(i, i + FRAGMENT_LENGTH);
            if (!identifying(piece)) continue;
            pieces.all.add(piece);
            pieces.starts.add(form, i);
          }
        changed = true;
      }
      if (!changed) return;
      // Longest first, so a secret that contains another is masked whole.
      forms = [...new Set([...secrets].flatMap(secretForms))].sort((a, b) => b.length - a.length);
      mask = maskFor(forms);
    },
    redactHead(text, limit) {
      if (text.length <= limit) return redactor.redact(text);
      // No form is longer than `reach`, so every form that starts in the head ends in the window;
      // if the window's tail comes out of redaction untouched, nothing crossed the cut and the
      // redacted head is the whole answer's redacted head. Otherwise (a secret at the cut) the
      // whole text is redacted.
      const reach = Math.max(forms[0]?.length ?? 0, FRAGMENT_LENGTH);
      const tail = text.slice(limit, limit + reach);
      const window = redactor.redact(text.slice(0, limit + reach));
      const head = window.endsWith(tail)
        ? window.slice(0, window.length - tail.length)
        : redactor.redact(text);
      return detached(head.slice(0, limit));
    },
    redact(text) {
      if (typeof text !== 'string') return text;
      let result = text;
      // A replacement can join two halves of another form only across the mask, which no form
      // touches; repeating until nothing changes is a guard, not a need.
      for (let pass = 0; pass < 4; pass++) {
        let changed = false;
        for (const form of forms) {
          if (!result.includes(form)) continue;
          result = result.split(form).join(mask);
          changed = true;
        }
        if (!changed) break;
      }
      if (pieces.all.size > 0 && result.length >= FRAGMENT_LENGTH) result = maskPieces(result, pieces, mask);
      return maskTokenShapes(result, mask);
    },
  };
  redactor.add(...initial);
  return redactor;
}

/** A token shown in a report: its environment prefix only, so a reader knows which kind it was. */
export function maskToken(token: string): string {
  const prefix = /^(svc_(?:prod|dev)_key_)/.exec(token)?.[1] ?? '';
  return `${prefix}[redacted]`;
}
