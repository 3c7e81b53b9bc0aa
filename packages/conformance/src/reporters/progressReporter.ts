import type { Reporter } from '../run/events.js';
import { totalsLine, verdictLine } from './verdictText.js';

/**
 * One line per finished check (`passed`, `failed`, `skipped` with the reason…), so a long run
 * against a real environment is never silent. The CLI sends the lines to stderr.
 */
export function progressReporter(
  write: (line: string) => void,
  options: { readonly verdict?: boolean } = {},
): Reporter {
  return {
    name: 'progress',
    onEvent(event) {
      // Without the table on stdout, the terminal would otherwise never see the verdict.
      if (event.type === 'run-end' && options.verdict) {
        write(totalsLine(event.outcome));
        write(verdictLine(event.outcome));
        return;
      }
      if (event.type !== 'check-end') return;
      const { title, verdict, durationMs } = event.result;
      const took = durationMs > 0 ? ` (${(durationMs / 1000).toFixed(1)} s)` : '';
      const detail =
        verdict.state === 'failed'
          ? verdict.failures.length > 0
            ? `: ${verdict.failures.length} counterexample${verdict.failures.length === 1 ? '' : 's'}`
            : ''
          : verdict.state === 'passed'
            ? ''
            : `: ${verdict.reason}`;
      write(`${verdict.state.padEnd(7)} ${title}${took}${detail}`);
    },
  };
}
