// Spec text goes into VitePress markdown, which Vue compiles as a template: `{{` would start an
// interpolation and `<word>` an element. These helpers keep spec text literal.

/** Markdown prose from the spec: kept as markdown, with only what Vue would misread escaped. */
export function guardVue(text: string): string {
  // Inside code spans markdown already escapes `<`; outside them it would reach Vue as a tag.
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) =>
      index % 2 === 1 ? part : part.replace(/<(?=[A-Za-z_/])/g, '&lt;').replaceAll('{{', '{&#8203;{'),
    )
    .join('');
}

/** Text for a markdown table cell: one line, pipes escaped. */
export function tableCell(text: string): string {
  return guardVue(text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|'));
}

/** An inline code span that survives backticks inside `text`. */
export function inlineCode(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}
