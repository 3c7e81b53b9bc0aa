import type { Assumption, NotShown } from '@cloud-api/spec';

export function escapeHtml(text: string): string {
  return (
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&#39;')
      // Vue compiles every page as a template: a literal `{{` would start an interpolation.
      .replaceAll('{{', '{&#8203;{')
  );
}

/** Inline code spans (`like this`) of the gap texts, after escaping. */
function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('');
  const body = rows.map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table tabindex="0">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** The document's "not shown" gaps, quoted, from the bundled spec's `x-not-shown`. */
export function renderNotShownTable(gaps: readonly NotShown[]): string {
  const rows = gaps.map((gap) => [
    `<code id="${escapeHtml(gap.id)}">${escapeHtml(gap.id)}</code>`,
    escapeHtml(gap.section),
    `<q>${inlineCode(gap.quote)}</q>${gap.implied ? ' <em>(implied by the document)</em>' : ''}`,
    gap.scope === 'document' ? 'whole API' : 'marked on the spec objects concerned',
  ]);
  return table(['Id', 'Section of the document', 'What the document says', 'Where'], rows);
}

/** The choices the spec made where the document is silent, from the bundled spec's `x-assumptions`. */
export function renderAssumptionsTable(assumptions: readonly Assumption[]): string {
  const rows = assumptions.map((assumption) => [
    `<code id="${escapeHtml(assumption.id)}">${escapeHtml(assumption.id)}</code>`,
    inlineCode(assumption.subject),
    inlineCode(assumption.choice),
    inlineCode(assumption.reason),
    inlineCode(assumption.conformance),
  ]);
  return table(['Id', 'Subject', 'Choice made', 'Why', 'How conformance avoids depending on it'], rows);
}

export const NOT_SHOWN_MARKER = '<!-- gaps:not-shown -->';
export const ASSUMPTIONS_MARKER = '<!-- gaps:assumptions -->';
