import { describe, expect, it } from 'vitest';
import { forcesExit, WRAPPER_COPY_MS } from '../src/run/interruptPolicy.js';

describe('interruptPolicy: when a further signal forces the exit', () => {
  it("a copy of the first signal moments later (the group's Ctrl-C and pnpm's) does not force; a later one does", () => {
    const first = { at: 10_000 };
    expect(forcesExit(first, 10_000)).toBe(false);
    expect(forcesExit(first, 10_000 + WRAPPER_COPY_MS - 1)).toBe(false);
    expect(forcesExit(first, 10_000 + WRAPPER_COPY_MS)).toBe(true);
    expect(forcesExit(first, 60_000)).toBe(true);
  });

  it('the first signal counted (after a stop for a vanished launcher) never forces', () => {
    expect(forcesExit(undefined, 10_000)).toBe(false);
  });
});
