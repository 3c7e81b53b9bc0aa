import fc from 'fast-check';

/**
 * Values of the documented types, within common bounds, for each field a NAT rule update may send.
 * Text is any Unicode, emoji included (characters past the 3-byte UTF-8 range are where a
 * `utf8mb3` column cuts a string short); which characters a target allows is not shown.
 */
const natRuleFieldValues = {
  name: fc.oneof(
    fc.stringMatching(/^[a-z][a-z0-9-]{0,19}$/),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  ),
  protocol: fc.constantFrom('tcp', 'udp'),
  external_port: fc.integer({ min: 1024, max: 65535 }),
  internal_ip: fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }))
    .map(([a, b]) => `10.0.${a}.${b}`) as fc.Arbitrary<string>,
  internal_port: fc.integer({ min: 1, max: 65535 }),
  note: fc.string({ unit: 'grapheme', maxLength: 30 }),
  enabled: fc.boolean(),
};

/**
 * Internal IPs beside the rule's own (its /24): which addresses the rule's VPC accepts is not
 * shown, and a target may refuse one outside the VPC's range. A rule whose internal IP is not a
 * dotted IPv4 address gets the general ones.
 */
function internalIpsNear(internalIp: unknown): fc.Arbitrary<string> {
  const prefix =
    typeof internalIp === 'string'
      ? /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(internalIp)?.[1]
      : undefined;
  return prefix
    ? fc.integer({ min: 1, max: 254 }).map((host) => `${prefix}.${host}`)
    : natRuleFieldValues.internal_ip;
}

/** A NAT rule update that sends every field the document lets it change, its internal IP beside the rule's. */
export function natRuleUpdate(internalIp: unknown) {
  return fc.record({ ...natRuleFieldValues, internal_ip: internalIpsNear(internalIp) });
}

/**
 * Text where storage bends it: padded with spaces (a trimming binder), longer than a narrow
 * column (a VARCHAR(32) that truncates), holding control characters (a NUL that a database
 * refuses mid-statement), or reading as a number (a column of numeric affinity). Which lengths and characters a field allows is not shown.
 */
const paddedText = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/).map((text) => ` ${text}  `);
const longText = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{40,90}$/),
  // Past the common column widths: VARCHAR(255), and 1024 or 4096 where a framework caps text.
  fc
    .tuple(fc.constantFrom(256, 1_025, 4_097), fc.nat({ max: 40 }), fc.stringMatching(/^[a-z0-9]{1,8}$/))
    .map(([past, extra, stem]) =>
      `${stem}-${'0123456789'.repeat(Math.ceil((past + extra) / 10))}`.slice(0, past + extra),
    ),
);
// Text that reads as a number: a column of numeric affinity (SQLite NUMERIC, a loosely typed
// store) keeps "0042" as 42 and "12.50" as 12.5.
const numberLikeText = fc.constantFrom('0042', '12.50', '1e3', '+7', '007.0', '1_000');
const controlText = fc
  .tuple(fc.stringMatching(/^[a-z]{0,6}$/), fc.constantFrom('\u0000', '\u0007', '\u001b'))
  .map(([text, control]) => `${text}${control}${text}`);

/**
 * A partial NAT rule update: any subset of those fields, its text now and then awkward to store,
 * its internal IP beside the rule's.
 */
export function natRulePatch(internalIp: unknown) {
  return fc.record(
    {
      ...natRuleFieldValues,
      internal_ip: internalIpsNear(internalIp),
      external_port: fc.oneof(
        { arbitrary: natRuleFieldValues.external_port, weight: 9 },
        { arbitrary: portBeyondSixteenBits, weight: 1 },
      ),
      internal_port: fc.oneof(
        { arbitrary: natRuleFieldValues.internal_port, weight: 9 },
        { arbitrary: portBeyondSixteenBits, weight: 1 },
      ),
      name: fc.oneof(natRuleFieldValues.name, paddedText, longText),
      note: fc.oneof(natRuleFieldValues.note, paddedText, longText, controlText, numberLikeText),
    },
    { requiredKeys: [] },
  );
}

/**
 * A port past 65535: the document gives ports no bounds (NS-FIELD-BOUNDS), so a target may refuse
 * one; what it accepts it must keep as sent (an unsigned 16-bit column clamps it to 65535).
 */
const portBeyondSixteenBits = fc.integer({ min: 65_536, max: 99_999 });

/**
 * The same awkward values in every run, whatever the depth: padded, long (past 40 and past 255
 * characters), NUL-holding or number-like text, a port past 16 bits.
 */
export const awkwardValueUpdates = [
  { external_port: 70_000 },
  { note: '  spaced note ' },
  { name: `edge-${'0123456789'.repeat(4)}` },
  { note: `note-${'0123456789'.repeat(30)}` },
  { note: 'nul\u0000inside' },
  { note: '0042' },
];

/** Why a refusal (400 or 422) of an update says nothing: text whose allowed length or characters are not shown. */
export function unshownTextLimits(update: Readonly<Record<string, unknown>>): string | undefined {
  const texts = Object.values(update).filter((value): value is string => typeof value === 'string');
  if (texts.some((text) => /[^\x20-\x7e]/.test(text))) return 'text beyond printable ASCII';
  if (texts.some((text) => text.length > 20)) return 'text longer than 20 characters';
  if (texts.some((text) => text !== text.trim())) return 'text with leading or trailing spaces';
  return undefined;
}

/** Why a refusal (400 or 422) of an update says nothing: a port past 65535, where the bounds are not shown. */
export function unshownPortBounds(update: Readonly<Record<string, unknown>>): string | undefined {
  const beyond = (['external_port', 'internal_port'] as const).find(
    (field) => typeof update[field] === 'number' && (update[field] as number) > 65_535,
  );
  return beyond
    ? `the update with ${beyond} ${String(update[beyond])} was refused as invalid: the bounds of ports are not shown`
    : undefined;
}

/** Why a refusal (400 or 422) of an update says nothing: a new internal IP, where the VPC's range is not shown. */
export function unshownAddressRange(
  update: Readonly<Record<string, unknown>>,
  before: Readonly<Record<string, unknown>>,
): string | undefined {
  return 'internal_ip' in update && update.internal_ip !== before.internal_ip
    ? `the update moving internal_ip to ${JSON.stringify(update.internal_ip)} was refused as invalid: which internal IPs the rule's VPC accepts is not shown`
    : undefined;
}

export const NAT_RULE_FIELDS = [
  'name',
  'protocol',
  'external_port',
  'internal_ip',
  'internal_port',
  'note',
  'enabled',
] as const;

/** Bodies a client may send by mistake: malformed JSON, wrong types, odd encodings, hostile keys. */
export const malformedBody: fc.Arbitrary<{ kind: string; body: string; contentType: string }> = fc.oneof(
  fc
    .constantFrom('{', '{"a":', '[', 'nul', '{"a":1,}', "{'a':1}", '\u0000', '{"a":"\\ud800"}')
    .map((body) => ({ kind: 'malformed JSON', body, contentType: 'application/json' })),
  fc
    .constantFrom('"text"', '42', 'null', 'true', '[]', '[1,2]')
    .map((body) => ({ kind: 'JSON that is not an object', body, contentType: 'application/json' })),
  fc
    .record(
      {
        sku_code: fc.oneof(
          fc.integer(),
          fc.boolean(),
          fc.constant(null),
          fc.array(fc.integer(), { maxLength: 2 }),
        ),
        retention_days: fc.oneof(fc.string({ maxLength: 5 }), fc.double(), fc.constant(-1)),
        external_port: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(1e300), fc.constant(-80)),
        enabled: fc.oneof(fc.string({ maxLength: 5 }), fc.integer()),
        schedule: fc.oneof(fc.string({ maxLength: 5 }), fc.constant([]), fc.constant({ hour: 'x' })),
      },
      { requiredKeys: [] },
    )
    .map((value) => ({ kind: 'wrong types', body: JSON.stringify(value), contentType: 'application/json' })),
  fc
    .constantFrom('{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}')
    .map((body) => ({ kind: 'prototype-polluting keys', body, contentType: 'application/json' })),
  fc
    .constantFrom(
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data',
    )
    .map((contentType) => ({ kind: 'odd content type', body: '{"sku_code":"x"}', contentType })),
  fc
    // Code points, lone surrogates included, like fc.string's 'binary' unit, without the
    // 1.1-million-entry reverse mapping that unit builds when the module loads (0.7 s).
    .array(fc.nat({ max: 0x10ffff }), { maxLength: 40 })
    .map((codePoints) => String.fromCodePoint(...codePoints))
    .map((body) => ({ kind: 'random text', body, contentType: 'application/json' })),
);
