import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../src/terminalSafe.js';

describe('terminalSafe: what a target sent reaches the terminal as text', () => {
  it('writes escape sequences and other controls as \\u00XX, keeps line feeds, tabs and ordinary text', () => {
    const hostile = 'detail \u001b[2J\u001b[8mhidden\r\u0007\u009b31m\tdone\nnext é ✓';
    const safe = terminalSafe(hostile);
    expect(safe).toBe('detail \\u001b[2J\\u001b[8mhidden\\u000d\\u0007\\u009b31m\tdone\nnext é ✓');
    const controls = [...safe].filter((c) => {
      const code = c.charCodeAt(0);
      return (code < 0x20 && c !== '\t' && c !== '\n') || (code >= 0x7f && code <= 0x9f);
    });
    expect(controls).toEqual([]);
    expect(terminalSafe('plain text\n')).toBe('plain text\n');
  });

  it('leaves a JSON line valid JSON with the same value', () => {
    const line = JSON.stringify({ detail: 'a\u007fb\u0085c' });
    expect(JSON.parse(terminalSafe(line))).toEqual({ detail: 'a\u007fb\u0085c' });
  });
});
