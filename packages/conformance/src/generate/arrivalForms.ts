import type { ParameterSchema } from '../spec/requestParameters.js';
import type { RequestField } from '../spec/requestSchemas.js';

/**
 * How a form relates to the well-formed value it was derived from (PARAM-1):
 * `same` spells that value (a target may refuse it, or act exactly as for the value);
 * `other` is another well-formed value (a target must never answer it as the original).
 */
export type FormReading = 'same' | 'other';

/** A parameter value as it may arrive in a URL, already percent-encoded. */
export interface ParameterForm {
  readonly kind: string;
  readonly reading: FormReading;
  /** The text that goes in the URL in place of the encoded value. */
  readonly encoded: string;
  /** Query parameters only: the parameter is given twice, with this form each time. */
  readonly twice?: boolean;
}

/** A body field's value as it may arrive in JSON, and the value a target that accepts it must store. */
export interface BodyForm {
  readonly kind: string;
  readonly sent: unknown;
  /** The value's JSON text where it is not `JSON.stringify(sent)`: `8082.0` is 8082 to JavaScript. */
  readonly json?: string;
  readonly means: unknown;
  /** What a target that accepts it must do, where that is not storing `means` as sent ("left as it was"). */
  readonly accepted?: string;
}

/** Zero of some Unicode decimal-digit scripts that parsers (Python's `int`, Java's `Character.digit`) read as digits. */
const DIGIT_SCRIPTS: readonly { readonly name: string; readonly zero: number }[] = [
  { name: 'Arabic-Indic', zero: 0x0660 },
  { name: 'Devanagari', zero: 0x0966 },
  { name: 'full-width', zero: 0xff10 },
];

/**
 * The superscript digits 0-9: Python's `str.isdigit()` counts them as digits, `int()` refuses
 * them, and NFKC folds them to ASCII.
 */
const SUPERSCRIPT_DIGITS = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';

/** Whitespace and control characters frameworks trim, stop at, or keep. */
const SURROUNDINGS: readonly { readonly kind: string; readonly before?: string; readonly after?: string }[] =
  [
    { kind: 'a tab before it', before: '\t' },
    { kind: 'a newline after it', after: '\n' },
    { kind: 'CR LF after it', after: '\r\n' },
    { kind: 'a no-break space after it', after: '\u00a0' },
    { kind: 'an ideographic space before it', before: '\u3000' },
    { kind: 'a NUL after it', after: '\u0000' },
  ];

/** Every UTF-8 byte as `%XX`: the same text to any reader that decodes the URL once. */
export function percentEncodeEvery(text: string): string {
  return [...new TextEncoder().encode(text)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/** The digits of `text` in the script whose zero is `zero`; anything else (a sign) is kept. */
function inScript(text: string, zero: number): string {
  return text.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

/** A string schema whose pattern only digits satisfy, for this value: a number written as text. */
function isNumericText(schema: ParameterSchema, value: string): boolean {
  if (schema.type !== 'string' || !/^[0-9]+$/.test(value) || !schema.pattern) return false;
  const pattern = new RegExp(schema.pattern, 'u');
  return pattern.test(value) && !pattern.test(`${value}a`) && !pattern.test(`a${value}`);
}

/** The text with every letter in the other case. */
export function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/**
 * Forms every text value can arrive in: surrounded, percent-encoded throughout, encoded twice.
 * Surrounded, an opaque identifier is another identifier (`surrounded` 'other'), which a lookup
 * that trims (`strip`, `s/^\s+|\s+$//`) or stops at a NUL finds anyway.
 */
function textForms(value: string, surrounded: FormReading): ParameterForm[] {
  return [
    ...SURROUNDINGS.map((s) => ({
      kind: surrounded === 'other' ? `${s.kind} (another identifier: identifiers are opaque)` : s.kind,
      reading: surrounded,
      encoded: encodeURIComponent(`${s.before ?? ''}${value}${s.after ?? ''}`),
    })),
    { kind: 'every character percent-encoded', reading: 'same', encoded: percentEncodeEvery(value) },
    // Decoded once, as a URL is, this is the text "%31%30…": another value, never this one.
    {
      kind: 'percent-encoded twice',
      reading: 'other',
      encoded: encodeURIComponent(percentEncodeEvery(value)),
    },
    // Another value with a slash in it: a router that decodes %2F before matching sends it to
    // no route, whose default answer (an HTML 404 page) is no JSON error.
    {
      kind: 'an encoded slash inside',
      reading: 'other',
      encoded: encodeURIComponent(
        `${value.slice(0, Math.ceil(value.length / 2))}/${value.slice(Math.ceil(value.length / 2))}`,
      ),
    },
  ];
}

/** Forms of a number written as text: other digit scripts, a cut, and numbers a wrapping parser folds onto it. */
function numericTextForms(value: string): ParameterForm[] {
  const cut = Math.max(1, Math.floor(value.length / 2));
  const n = BigInt(value);
  return [
    ...DIGIT_SCRIPTS.map((script) => ({
      kind: `its digits in ${script.name}`,
      reading: 'same' as const,
      encoded: encodeURIComponent(inScript(value, script.zero)),
    })),
    {
      kind: 'its digits in superscript (str.isdigit() counts them; int() refuses them)',
      reading: 'same' as const,
      encoded: encodeURIComponent(value.replace(/[0-9]/g, (d) => SUPERSCRIPT_DIGITS[Number(d)] ?? d)),
    },
    {
      kind: 'its first digit in Arabic-Indic',
      reading: 'same',
      encoded: encodeURIComponent(`${inScript(value.slice(0, 1), 0x0660)}${value.slice(1)}`),
    },
    {
      // The spec's pattern admits leading zeros (A-WORKSPACE-ID-LEADING-ZEROS): refused or read
      // as this number, never as the octal number a C-style parser makes of it.
      kind: 'a leading zero (an octal parser reads another number)',
      reading: 'same',
      encoded: `0${value}`,
    },
    {
      kind: 'a NUL inside it',
      reading: 'same',
      encoded: encodeURIComponent(`${value.slice(0, cut)}\u0000${value.slice(cut)}`),
    },
    {
      // A positive number, so not WS-2's; but another number than this one, never its workspace.
      kind: 'a fraction added (another number, which an integer parser truncates to this one)',
      reading: 'other',
      encoded: `${value}.5`,
    },
    {
      kind: 'plus 2^32 (another ID a 32-bit parser reads as this one)',
      reading: 'other',
      encoded: String(n + 2n ** 32n),
    },
    {
      kind: 'plus 2^64 (another ID a 64-bit parser reads as this one)',
      reading: 'other',
      encoded: String(n + 2n ** 64n),
    },
  ];
}

/**
 * "`string` identifiers are opaque": a path id made of digits, spelled as another way of writing
 * its number, is another identifier, which a lookup through an integer column (an ORM casting the
 * id, `WHERE id = CAST(? AS INTEGER)`) finds anyway.
 */
function otherNumberSpellings(value: string): ParameterForm[] {
  const other = (kind: string, text: string): ParameterForm => ({
    kind: `${kind} (another identifier, which an integer lookup reads as this one)`,
    reading: 'other',
    encoded: encodeURIComponent(text),
  });
  return [
    other('a leading zero', `0${value}`),
    other('a plus sign', `+${value}`),
    other('written with a fraction', `${value}.0`),
  ];
}

/**
 * The forms a parameter's value may arrive in, derived from its schema: forms of any text,
 * forms of a number when only digits match the pattern, another letter case of text that has any,
 * and (for a query parameter) the same value given twice.
 */
export function parameterForms(
  parameter: { readonly in: string; readonly schema: ParameterSchema },
  value: string,
): ParameterForm[] {
  const numeric = isNumericText(parameter.schema, value);
  // A number written as text (workspace_id) with whitespace around it spells that number
  // (A-LENIENT-COERCION; WS-5 asks for the canonical form); a path id is opaque.
  const forms = textForms(value, parameter.in === 'path' && !numeric ? 'other' : 'same');
  if (numeric) forms.push(...numericTextForms(value));
  else if (parameter.in === 'path' && /^[0-9]+$/.test(value)) forms.push(...otherNumberSpellings(value));
  // "`string` identifiers are opaque": in another letter case a value is another identifier, which
  // a lookup through a case-insensitive collation (MySQL's *_ci) finds anyway.
  const swapped = swapCase(value);
  if (swapped !== value)
    forms.push({
      kind: 'in another letter case (another identifier: identifiers are opaque)',
      reading: 'other',
      encoded: encodeURIComponent(swapped),
    });
  if (parameter.in === 'query')
    forms.push({ kind: 'given twice', reading: 'same', encoded: encodeURIComponent(value), twice: true });
  return forms;
}

/** 2^32: an integer this far from the value is the same to a 32-bit column or parser that wraps. */
const WRAP_32 = 2 ** 32;

/**
 * The forms a body field's value may arrive in, derived from its type: a number as text (padded,
 * in full-width digits), a boolean as text or 0/1, an enum value in other letter cases or padded,
 * text as a number or a boolean; and an integer 2^32 away (another value a wrapping column stores as this one).
 * `means` is what a target that accepts the form must store; refusing it obeys too.
 */
export function bodyForms(field: RequestField, value: unknown): BodyForm[] {
  switch (field.type) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return [];
      return [
        { kind: 'the number as text', sent: String(value), means: value },
        { kind: 'the number as text with spaces around it', sent: ` ${value} `, means: value },
        {
          kind: 'the number as text in full-width digits',
          sent: inScript(String(value), 0xff10),
          means: value,
        },
        { kind: 'the number plus 2^32', sent: value + WRAP_32, means: value + WRAP_32 },
        // Numbers a JSON parser may keep as floats (Python's json), which an integer check
        // written as `float.is_integer()` lets through and the record then writes back as such.
        { kind: 'the number written with a fraction', sent: value, json: `${value}.0`, means: value },
        {
          kind: 'the number written with an exponent',
          sent: value,
          json: exponentForm(value),
          means: value,
        },
        // Python's bool is an int: `isinstance(True, int)` lets true through as 1.
        { kind: 'true for 1 (a boolean where an integer goes)', sent: true, means: 1 },
      ];
    case 'boolean':
      if (typeof value !== 'boolean') return [];
      return [
        { kind: 'the boolean as text', sent: String(value), means: value },
        { kind: 'the boolean as 0 or 1', sent: value ? 1 : 0, means: value },
      ];
    case 'string': {
      if (typeof value !== 'string') return [];
      if (field.enum)
        return [
          { kind: 'the enum value in upper case', sent: value.toUpperCase(), means: value },
          {
            kind: 'the enum value capitalised',
            sent: `${value.slice(0, 1).toUpperCase()}${value.slice(1)}`,
            means: value,
          },
          { kind: 'the enum value with spaces around it', sent: ` ${value} `, means: value },
        ].filter((form) => form.sent !== value);
      const digits = 10_000 + (value.length % 9_000);
      return [
        { kind: 'a number for the text', sent: digits, means: String(digits) },
        // JSON's true spells "true"; Python's str() of it writes "True" (a lax pydantic str).
        { kind: 'a boolean for the text', sent: true, means: 'true' },
      ];
    }
    default:
      return [];
  }
}

/** `value` in exponent notation with its digits kept exact: 8082 is 8.082e3, -7 is -7e0. */
function exponentForm(value: number): string {
  const digits = String(Math.abs(value));
  const sign = value < 0 ? '-' : '';
  const fraction = digits.slice(1);
  return `${sign}${digits[0]}${fraction ? `.${fraction}` : ''}e${digits.length - 1}`;
}
