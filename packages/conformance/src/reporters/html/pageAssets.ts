/**
 * The report's own style and script, inlined into the page: the file is opened from a CI
 * artifact or an e-mail, offline and from file://, so it loads nothing. Both are the suite's
 * constant text (never a value of the run); the page's Content-Security-Policy allows exactly
 * these two by their hashes, and nothing else.
 */

export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --inc: #8250df; --skip: #57606a;
  --bar: #0969da; --bar-bg: #dde3ea;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #161b22; --line: #30363d;
    --pass: #3fb950; --fail: #ff7b72; --warn: #d29922; --inc: #bc8cff; --skip: #9198a1;
    --bar: #4493f8; --bar-bg: #30363d;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; padding: 1rem; color: var(--fg); background: var(--bg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  overflow-wrap: anywhere;
}
main { max-width: 70rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; line-height: 1.25; }
h2 { font-size: 1.25rem; margin: 2rem 0 .75rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
h4 { font-size: .95rem; margin: .75rem 0 .25rem; }
a { color: var(--bar); }
code, pre, kbd { font-family: var(--mono); font-size: .875rem; }
pre {
  margin: .25rem 0 .75rem; padding: .5rem .75rem; background: var(--panel); border: 1px solid var(--line);
  border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem; overflow-y: auto;
}
.muted { color: var(--muted); }
.small { font-size: .875rem; }
header.verdict { border-left: .5rem solid var(--skip); padding: .5rem 0 .5rem 1rem; margin-bottom: 1rem; }
header.verdict.passed { border-color: var(--pass); }
header.verdict.failed { border-color: var(--fail); }
header.verdict.incomplete { border-color: var(--inc); }
.badge {
  display: inline-block; padding: 0 .45rem; border-radius: 1rem; font-size: .8rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; line-height: 1.5;
}
.big { font-size: 1.1rem; padding: .1rem .75rem; }
.s-passed { color: var(--pass); } .s-failed { color: var(--fail); } .s-warn { color: var(--warn); }
.s-inconclusive, .s-incomplete { color: var(--inc); } .s-skipped { color: var(--skip); }
ul.why { margin: .5rem 0; padding-left: 1.25rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; min-width: 0; }
dl.glossary dd { margin: 0 0 .5rem 1rem; }
.counts { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; padding: 0; list-style: none; }
nav.toc ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; margin: .5rem 0; }
details { margin: .25rem 0; }
details > summary { cursor: pointer; }
article.failure {
  border: 1px solid var(--line); border-left: .35rem solid var(--fail); border-radius: 6px;
  padding: .5rem 1rem; margin: 1rem 0; break-inside: avoid-page;
}
article.failure.s-warn-card { border-left-color: var(--warn); }
.replay { display: flex; flex-wrap: wrap; align-items: flex-start; gap: .5rem; }
.replay pre { flex: 1 1 16rem; margin: 0; user-select: all; }
button.copy {
  font: inherit; font-size: .8rem; padding: .2rem .6rem; border-radius: 6px; border: 1px solid var(--line);
  background: var(--panel); color: var(--fg); cursor: pointer;
}
.exchange { border-top: 1px dashed var(--line); margin-top: .5rem; padding-top: .25rem; }
.exchange .line { font-family: var(--mono); font-size: .875rem; margin: .25rem 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .2rem .5rem .2rem 0; border-bottom: 1px solid var(--line); }
table.headers td:first-child { white-space: nowrap; color: var(--muted); font-family: var(--mono); font-size: .8rem; }
table.headers td:last-child { font-family: var(--mono); font-size: .8rem; }
ol.rules { list-style: none; padding: 0; margin: 0; }
ol.rules > li { border-bottom: 1px solid var(--line); padding: .5rem 0; }
.rule-head { display: flex; flex-wrap: wrap; gap: .25rem .6rem; align-items: baseline; }
.rule-id { font-family: var(--mono); font-weight: 600; }
blockquote { margin: .25rem 0; padding: 0 .75rem; border-left: 3px solid var(--line); color: var(--muted); }
ul.checks { margin: .25rem 0; padding-left: 1.25rem; font-size: .9rem; }
.chart { display: grid; grid-template-columns: minmax(0, 14rem) minmax(4rem, 1fr) max-content; gap: .2rem .75rem; align-items: center; }
.chart .label { font-family: var(--mono); font-size: .8rem; }
.chart .value { font-size: .8rem; white-space: nowrap; }
.chart .note { grid-column: 1 / -1; font-size: .75rem; color: var(--muted); margin: -.15rem 0 .25rem; }
.chart svg { display: block; width: 100%; height: .8rem; }
.chart svg .bg { fill: var(--bar-bg); }
.chart svg .fg { fill: var(--bar); }
.chart svg .fg.full { fill: var(--pass); }
.table-wrap { overflow-x: auto; }
footer { margin-top: 2rem; font-size: .8rem; color: var(--muted); }
@media (max-width: 40rem) {
  body { padding: .75rem; }
  .chart { grid-template-columns: minmax(0, 1fr) max-content; }
  .chart .label { grid-column: 1 / -1; margin-top: .25rem; }
}
@media print {
  :root { color-scheme: light; --fg: #000; --muted: #444; --bg: #fff; --panel: #fff; --line: #999; }
  body { padding: 0; font-size: 11pt; }
  button.copy, nav.toc { display: none; }
  pre { max-height: none; overflow: visible; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid-page; }
  .chart svg, .badge, header.verdict { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`;

/**
 * Progressive enhancement only: the page reads the same without it. Copy buttons for the replay
 * commands, and every collapsed section opened for printing (a closed <details> does not print).
 */
export const PAGE_SCRIPT = `
(() => {
  for (const button of document.querySelectorAll('button.copy')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = 'Copied';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(document.getElementById(button.dataset.copy));
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        button.textContent = 'Selected: press Ctrl+C';
      }
      setTimeout(() => { button.textContent = 'Copy'; }, 2000);
    });
  }
  let closed = [];
  addEventListener('beforeprint', () => {
    closed = [...document.querySelectorAll('details:not([open])')];
    for (const details of closed) details.open = true;
  });
  addEventListener('afterprint', () => {
    for (const details of closed) details.open = false;
    closed = [];
  });
})();
`;
