import { createHash } from 'node:crypto';
import { Eta } from 'eta';
import { PAGE_SCRIPT, PAGE_STYLE } from './pageAssets.js';
import type { ReportModel } from './reportModel.js';
import { EXCHANGE_TEMPLATE, PAGE_TEMPLATE, PARTS_TEMPLATE } from './templates.js';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page may load nothing and run only its own style and script: even a value that escaped
 * the escaping could neither fetch, nor run, nor send a form anywhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${sha256(PAGE_STYLE)}`,
  `script-src ${sha256(PAGE_SCRIPT)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

let eta: Eta | undefined;

/** One Eta with the templates compiled once; autoEscape on, so `<%= %>` always escapes. */
function templates(): Eta {
  if (eta) return eta;
  eta = new Eta({ autoEscape: true, autoTrim: [false, 'nl'], useWith: false, varName: 'it' });
  eta.loadTemplate('@parts', PARTS_TEMPLATE);
  eta.loadTemplate('@exchange', EXCHANGE_TEMPLATE);
  eta.loadTemplate('@page', PAGE_TEMPLATE);
  return eta;
}

/** The self-contained HTML page of a run's report. */
export function renderHtml(model: ReportModel): string {
  return templates().render('@page', {
    m: model,
    style: PAGE_STYLE,
    script: PAGE_SCRIPT,
    csp: CONTENT_SECURITY_POLICY,
  });
}
