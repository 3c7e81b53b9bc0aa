/** A check as the streak names it (the engine's CheckRef; not imported: events.ts reads the outcome). */
interface CheckRef {
  readonly rule: string;
  readonly title: string;
}

/**
 * The target answered 5xx to everything from some check on, to the end of the run: it may have
 * gone down mid-run (its database, a dependency), and the rules failed from then on may share
 * that one cause. The failures stand (a 5xx breaks those rules); the run says so beside them.
 */
export interface ServerErrorStreak {
  /** Answers in a row, to the run's last, with a status of 500 or more. */
  readonly answers: number;
  /** The check that got the first of them. */
  readonly since: CheckRef;
  /** Checks that got any of them. */
  readonly checks: number;
  /** Every answer of the run was one of them: the target never answered otherwise. */
  readonly everyAnswer: boolean;
}

/**
 * Shorter streaks are what one broken operation gives (a check's cases all hitting the same
 * bug); a streak this long over several checks reads as the target itself going down.
 */
export const SERVER_ERROR_STREAK_ANSWERS = 20;
export const SERVER_ERROR_STREAK_CHECKS = 3;

export interface ServerErrorStreakTracker {
  /** One answer the target gave, during `check`. */
  observe(check: CheckRef | undefined, status: number): void;
  /** The streak the run ended on, when it is long enough to be said; else undefined. */
  ended(): ServerErrorStreak | undefined;
}

export function serverErrorStreakTracker(): ServerErrorStreakTracker {
  let answers = 0;
  let otherAnswers = 0;
  let since: CheckRef | undefined;
  const checks = new Set<string>();
  return {
    observe(check, status) {
      if (status < 500) {
        otherAnswers++;
        answers = 0;
        since = undefined;
        checks.clear();
        return;
      }
      answers++;
      since ??= check;
      if (check) checks.add(`${check.rule}\u0000${check.title}`);
    },
    ended() {
      return since && answers >= SERVER_ERROR_STREAK_ANSWERS && checks.size >= SERVER_ERROR_STREAK_CHECKS
        ? { answers, since, checks: checks.size, everyAnswer: otherAnswers === 0 }
        : undefined;
    },
  };
}

/** The streak as one sentence for the verdict and the reports. */
export function serverErrorStreakSentence(streak: ServerErrorStreak): string {
  return streak.everyAnswer
    ? `the target answered 5xx to every one of its ${streak.answers} answers, in ${streak.checks} checks: it may be down or broken as a whole, and the failures may share that one cause; look at the target's health first`
    : `the target answered 5xx to each of its last ${streak.answers} answers, in ${streak.checks} checks from ${streak.since.rule} "${streak.since.title}" on: it may have gone down during the run, and the failures from then on may share that one cause; look at the target's health first`;
}
