import fc from 'fast-check';

/** A spelling of a real workspace ID other than the canonical one, named by how it was derived. */
export interface WorkspaceForm {
  readonly kind: string;
  readonly value: string;
}

/**
 * Forms no reading of the document makes a positive numeric ID (WS-4, MUST): a sign that makes
 * the number negative, letters or separators added to it. A server that normalises the value
 * (drops the sign, parses the leading digits) serves them as the real workspace.
 */
export function invalidFormsOf(id: string): WorkspaceForm[] {
  const cut = Math.max(1, Math.floor(id.length / 2));
  return [
    { kind: 'negative', value: `-${id}` },
    { kind: 'letters appended', value: `${id}abc` },
    { kind: 'letters prepended', value: `abc${id}` },
    { kind: 'space inside', value: `${id.slice(0, cut)} ${id.slice(cut)}` },
    { kind: 'two IDs', value: `${id},${id}` },
    { kind: 'fraction and letters', value: `${id}.5x` },
    // A pattern whose `^` and `$` anchor at line ends (Ruby's always do; the m flag elsewhere)
    // passes any value with a line of digits.
    { kind: 'letters on a second line', value: `${id}\nabc` },
    { kind: 'letters on a first line', value: `abc\n${id}` },
  ];
}

const FULL_WIDTH_ZERO = 0xff10;
const ARABIC_INDIC_ZERO = 0x0660;

/**
 * Spellings a framework may read as the same number (WS-5, SHOULD; A-WORKSPACE-ID-CANONICAL-FORM):
 * the document does not say whether they are "numeric", so serving them is a reading, not a fault.
 */
export function nonCanonicalFormsOf(id: string): WorkspaceForm[] {
  const n = Number(id);
  return [
    { kind: 'plus sign', value: `+${id}` },
    { kind: 'leading space', value: ` ${id}` },
    { kind: 'trailing space', value: `${id} ` },
    { kind: 'decimal point', value: `${id}.0` },
    { kind: 'exponent', value: `${id.slice(0, 1)}.${id.slice(1) || '0'}e${id.length - 1}` },
    { kind: 'hexadecimal', value: `0x${n.toString(16)}` },
    {
      kind: 'full-width digits',
      value: [...id].map((d) => String.fromCodePoint(FULL_WIDTH_ZERO + Number(d))).join(''),
    },
    {
      kind: 'Arabic-Indic digits',
      value: [...id].map((d) => String.fromCodePoint(ARABIC_INDIC_ZERO + Number(d))).join(''),
    },
    // A regular expression's `$` also matches before a final newline (Python's re.match, PCRE).
    { kind: 'trailing newline', value: `${id}\n` },
    // Python's int() and Rust's literal syntax read an underscore between digits as nothing.
    ...(id.length > 1
      ? [{ kind: 'underscore between digits', value: `${id.slice(0, 1)}_${id.slice(1)}` }]
      : []),
  ];
}

/** One of `forms`, drawn so a shrunk counterexample names the kind of form it was. */
export function formOf(forms: readonly WorkspaceForm[]): fc.Arbitrary<WorkspaceForm> {
  return fc.constantFrom(...forms);
}

/**
 * Other positive workspace IDs written with the digits of `id`: a part of it (`104`, `42` of
 * `1042`), it with a digit more (`10420`, `11042`) and its neighbours. A policy that compares a
 * workspace with its list by substring, prefix or range lets them through; whether they belong to
 * the organization or not, a token whose list leaves them out is never served them.
 */
export function overlappingIdsOf(id: string): string[] {
  const parts = new Set<string>();
  for (let start = 0; start < id.length; start++)
    for (let end = start + 1; end <= id.length; end++) parts.add(id.slice(start, end));
  const n = BigInt(id);
  const all = [...parts, `${id}0`, `1${id}`, String(n - 1n), String(n + 1n)];
  return [...new Set(all)].filter((other) => other !== id && /^[1-9][0-9]*$/.test(other));
}

/**
 * Another workspace ID, decimal `0` + the octal digits of `id` (`02022`, decimal 2022, for 1042),
 * which a parser honouring radix prefixes (Java's `Long.decode`, Ruby's `Integer()`, Go's base-0
 * `ParseInt`) reads as `id`. Leading zeros may be read or refused (A-WORKSPACE-ID-LEADING-ZEROS);
 * read as decimal it is never `id`. None for IDs below 8, whose octal digits are their own.
 */
export function octalSpellingOf(id: string): string | undefined {
  const n = BigInt(id);
  // Below 8 the octal digits are the decimal ones: `01` is 1 either way.
  return n < 8n ? undefined : `0${n.toString(8)}`;
}
