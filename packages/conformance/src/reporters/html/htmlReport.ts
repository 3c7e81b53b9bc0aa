import type { Reporter } from '../../run/events.js';
import { createExchangeDigest } from './exchangeDigest.js';
import { renderHtml } from './renderHtml.js';
import { reportModel } from './reportModel.js';

export const HTML_REPORT_FILE = 'conformance-report.html';

/**
 * conformance-report.html: one self-contained page a person opens from a CI artifact: the
 * verdict and why, every rule by area with the sentence it checks, each failure with its
 * counterexample, exchanges and replay command, coverage per operation and the run's timing.
 */
export function htmlReporter(): Reporter {
  const digest = createExchangeDigest();
  return {
    name: 'html',
    observesExchanges: true,
    onEvent(event, { writeFile, print }) {
      if (event.type === 'exchange') digest.add(event);
      else if (event.type === 'check-end')
        digest.checkEnded(event.result.title, event.result.verdict.state === 'failed');
      else if (event.type === 'run-end') {
        const file = writeFile(HTML_REPORT_FILE, renderHtml(reportModel(event.outcome, digest.digest())));
        print(`HTML report: ${file}`);
      }
    },
  };
}
