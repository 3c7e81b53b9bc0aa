/** C0 controls but tab and line feed, DEL, and the C1 controls (0x9b starts an escape sequence too). */
const isControl = (code: number): boolean =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);

/**
 * Control characters written as `\u00XX`, line breaks and tabs kept: what a target sends back (an
 * error detail, a header) reaches the terminal as text, never as an escape sequence that clears
 * the screen, moves the cursor or hides the lines after it. JSON lines stay valid JSON.
 */
export function terminalSafe(text: string): string {
  let safe = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isControl(code)) continue;
    safe += `${text.slice(copied, i)}\\u${code.toString(16).padStart(4, '0')}`;
    copied = i + 1;
  }
  return copied === 0 ? text : safe + text.slice(copied);
}
