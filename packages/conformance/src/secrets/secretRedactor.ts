/**
 * The one redaction source of a run. Every value that came from a token field or from an
 * environment-variable expansion is a secret, whatever its length, and so is every token the
 * suite derives from one (ENV-1's prefix swap). Every writer (stdout, stderr, reports, replay
 * files, the created-resources log, error messages) passes its final text through `redact`.
 */
export interface SecretRedactor {
  /** Registers secrets; empty strings are ignored. */
  add(...secrets: readonly string[]): void;
  /** The text with every form of every secret replaced by the mask. */
  redact(text: string): string;
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

/** Every way a secret can be written into an output: raw, URL-, JSON-, XML-escaped, base64. */
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

export function createSecretRedactor(initial: readonly string[] = []): SecretRedactor {
  const secrets = new Set<string>();
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
        changed = true;
      }
      if (!changed) return;
      // Longest first, so a secret that contains another is masked whole.
      forms = [...new Set([...secrets].flatMap(secretForms))].sort((a, b) => b.length - a.length);
      mask = maskFor(forms);
    },
    redact(text) {
      if (forms.length === 0 || typeof text !== 'string') return text;
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
      return result;
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
