import { describe, expect, it } from 'vitest';
import {
  SERVER_ERROR_STREAK_ANSWERS,
  SERVER_ERROR_STREAK_CHECKS,
  serverErrorStreakSentence,
  serverErrorStreakTracker,
} from '../src/run/serverErrorStreak.js';

const check = (rule: string) => ({ rule, title: `${rule} check` });

/** Feeds `statuses` to the tracker, `perCheck` answers to each check in turn (rules C-1, C-2, …). */
function tracked(statuses: readonly number[], perCheck: number) {
  const tracker = serverErrorStreakTracker();
  for (const [i, status] of statuses.entries())
    tracker.observe(check(`C-${Math.floor(i / perCheck) + 1}`), status);
  return tracker.ended();
}

describe('serverErrorStreak: a run that ends on 5xx answers over several checks is said to have lost its target', () => {
  it('names the first check of a long streak that follows good answers, and counts only the streak', () => {
    const streak = tracked([...Array(30).fill(200), ...Array(40).fill(500)], 10);
    expect(streak).toEqual({ answers: 40, since: check('C-4'), checks: 4, everyAnswer: false });
    expect(serverErrorStreakSentence(streak as NonNullable<typeof streak>)).toMatch(
      /^the target answered 5xx to each of its last 40 answers, in 4 checks from C-4 "C-4 check" on: it may have gone down during the run/,
    );
  });

  it('says "every one" when the target never answered anything else', () => {
    const streak = tracked(Array(60).fill(503), 10);
    expect(streak?.everyAnswer).toBe(true);
    expect(serverErrorStreakSentence(streak as NonNullable<typeof streak>)).toMatch(
      /^the target answered 5xx to every one of its 60 answers, in 6 checks: it may be down/,
    );
  });

  it('says nothing of one broken operation: a long streak within fewer checks than the bound', () => {
    expect(tracked(Array(100).fill(500), Math.ceil(100 / (SERVER_ERROR_STREAK_CHECKS - 1)))).toBeUndefined();
  });

  it('says nothing of a short streak, or of one a later answer ended', () => {
    expect(tracked(Array(SERVER_ERROR_STREAK_ANSWERS - 1).fill(500), 1)).toBeUndefined();
    expect(tracked([...Array(50).fill(500), 404], 5)).toBeUndefined();
    expect(tracked([...Array(50).fill(500), 200, ...Array(5).fill(500)], 5)).toBeUndefined();
  });

  it('counts answers outside any check (the preflight) without naming them as the start', () => {
    const tracker = serverErrorStreakTracker();
    tracker.observe(undefined, 500);
    for (let i = 0; i < 30; i++) tracker.observe(check(`C-${(i % 3) + 1}`), 500);
    expect(tracker.ended()).toMatchObject({ answers: 31, since: check('C-1'), checks: 3 });
  });
});
