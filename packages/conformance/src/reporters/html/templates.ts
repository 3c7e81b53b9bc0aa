/**
 * The report's Eta templates. `<%= %>` escapes (every value of the run goes through it); `<%~ %>`
 * inserts raw text and is used only for the suite's own style and script, the CSP and the
 * output of another template of this file (itself escaped).
 */

/** Text with code spans (`it.parts` is a TextPart[]); each part escaped. */
export const PARTS_TEMPLATE = `<% for (const part of it.parts) { %><% if (part.code) { %><code><%= part.text %></code><% } else { %><%= part.text %><% } %><% } %>`;

/** One request and its answer, with headers and bodies (`it.x` is an ExchangeView). */
export const EXCHANGE_TEMPLATE = `<div class="exchange">
<p class="line"><strong><%= it.x.method %></strong> <%= it.x.url %></p>
<p class="line">→ <strong><%= it.x.status %></strong> <%= it.x.statusText %><% if (it.x.timing) { %> <span class="muted">(<%= it.x.timing %>)</span><% } %><% if (it.x.sameAsShown) { %> <span class="badge s-failed">the counterexample's request</span><% } %></p>
<details>
<summary>Request headers (<%= it.x.requestHeaders.length %>)<% if (it.x.requestBody) { %> and body<% } %></summary>
<% if (it.x.requestHeaders.length > 0) { %><div class="table-wrap"><table class="headers"><tbody>
<% for (const [name, value] of it.x.requestHeaders) { %><tr><td><%= name %></td><td><%= value %></td></tr>
<% } %></tbody></table></div><% } %>
<% if (it.x.requestBody) { %><h4>Request body<% if (it.x.requestBody.note) { %> <span class="muted small">(<%= it.x.requestBody.note %>)</span><% } %></h4>
<pre><%= it.x.requestBody.text %></pre><% } %>
</details>
<details<% if (it.open) { %> open<% } %>>
<summary>Response headers (<%= it.x.responseHeaders.length %>) and body</summary>
<% if (it.x.responseHeaders.length > 0) { %><div class="table-wrap"><table class="headers"><tbody>
<% for (const [name, value] of it.x.responseHeaders) { %><tr><td><%= name %></td><td><%= value %></td></tr>
<% } %></tbody></table></div><% } %>
<h4>Response body<% if (it.x.responseBody.note) { %> <span class="muted small">(<%= it.x.responseBody.note %>)</span><% } %></h4>
<pre><%= it.x.responseBody.text || '(empty)' %></pre>
</details>
</div>
`;

/** The whole page (`it.m` is the ReportModel; `it.style`, `it.script`, `it.csp` the page's own). */
export const PAGE_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="<%~ it.csp %>">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title><%= it.m.title %></title>
<style><%~ it.style %></style>
</head>
<body>
<main>
<header class="verdict <%= it.m.verdict.state %>" id="verdict">
<p class="muted small">Cloud API conformance report</p>
<h1>Conformance of <q><%= it.m.target.name %></q></h1>
<p><span class="badge big s-<%= it.m.verdict.state %>"><%= it.m.verdict.label %></span> <strong><%= it.m.verdict.line %></strong></p>
<ul class="why">
<% for (const line of it.m.verdict.why) { %><li><%= line %></li>
<% } %></ul>
<% if (it.m.verdict.failedRules.length > 0) { %><p>Failed rules: <% for (const rule of it.m.verdict.failedRules) { %><a href="#<%= rule.anchor %>"><%= rule.id %></a> <span class="muted small">(<%= rule.level %>)</span> <% } %></p><% } %>
<dl class="facts">
<dt>Target</dt><dd><%= it.m.target.name %> <span class="muted">(<%= it.m.target.kind %>)</span></dd>
<% if (it.m.target.environment) { %><dt>Environment</dt><dd><%= it.m.target.environment %></dd><% } %>
<% if (it.m.target.baseUrl) { %><dt>Base URL</dt><dd><code><%= it.m.target.baseUrl %></code></dd><% } %>
<% for (const fact of it.m.facts) { %><dt><%= fact.label %></dt><dd><%= fact.value %></dd>
<% } %></dl>
<ul class="counts">
<% for (const count of it.m.counts) { %><li><span class="badge s-<%= count.state %>"><%= count.count %> <%= count.label %></span></li>
<% } %></ul>
<p class="small muted"><%= it.m.totals %></p>
<details>
<summary>What the states and the verdict mean</summary>
<dl class="glossary">
<% for (const entry of it.m.glossary) { %><dt><strong><%= entry.term %></strong></dt><dd><%= entry.text %></dd>
<% } %></dl>
</details>
</header>

<nav class="toc" aria-label="Sections">
<ul>
<li><a href="#failures">Failures (<%= it.m.failures.length %>)</a></li>
<li><a href="#rules">Rules</a></li>
<li><a href="#coverage">Coverage</a></li>
<li><a href="#timing">Timing</a></li>
</ul>
</nav>

<section id="failures" aria-labelledby="failures-title">
<h2 id="failures-title">Failures</h2>
<% if (it.m.failures.length === 0) { %><p>No check failed.</p><% } %>
<% for (const f of it.m.failures) { %>
<article class="failure<% if (f.level === 'SHOULD') { %> s-warn-card<% } %>" id="<%= f.anchor %>">
<h3><a href="#rule-<%= f.rule %>"><%= f.rule %></a> <span class="badge <%= f.level === 'SHOULD' ? 's-warn' : 's-failed' %>"><%= f.level === 'SHOULD' ? 'WARN' : 'FAIL' %></span> <%= f.check %></h3>
<p><%= f.message %></p>
<% if (f.counterexample !== undefined) { %><h4>Counterexample</h4>
<pre><%= f.counterexample %></pre><% } %>
<% if (f.seed !== undefined) { %><p class="small">Seed <code><%= f.seed %></code>, path <code><%= f.path ?? '-' %></code><% if (f.replayFile) { %>, replay file <code><%= f.replayFile %></code><% } %></p><% } %>
<% if (f.replayCommand) { %><h4>Replay</h4>
<div class="replay"><pre id="<%= f.anchor %>-replay"><%= f.replayCommand %></pre><button type="button" class="copy" data-copy="<%= f.anchor %>-replay" hidden>Copy</button></div><% } %>
<% if (f.exchange) { %><h4>The exchange that shows it</h4>
<%~ include('@exchange', { x: f.exchange, open: true }) %><% } %>
<% if (f.errors.length > 0) { %><h4>What the check reported</h4>
<% for (const error of f.errors) { %><pre><%= error %></pre>
<% } %><% } %>
<% if (f.recent.length > 0) { %><details>
<summary>The check's last <%= f.recent.length %> requests before it ended</summary>
<% for (const x of f.recent) { %><%~ include('@exchange', { x, open: false }) %><% } %>
</details><% } %>
</article>
<% } %>
</section>

<section id="rules" aria-labelledby="rules-title">
<h2 id="rules-title">Rules by area</h2>
<p class="small muted">Each rule quotes the sentence of the API document it checks.</p>
<% for (const area of it.m.areas) { %>
<h3 id="area-<%= area.prefix %>"><%= area.name %> <span class="muted small">(<%= area.summary %>)</span></h3>
<ol class="rules">
<% for (const rule of area.rules) { %><li id="<%= rule.anchor %>">
<div class="rule-head"><span class="rule-id"><%= rule.id %></span> <span class="badge s-<%= rule.mark === 'WARN' ? 'warn' : rule.state %>"><%= rule.mark %></span> <span class="muted small"><%= rule.level %></span> <span><%= rule.title %></span></div>
<% for (const quote of rule.quotes) { %><blockquote><%~ include('@parts', { parts: quote }) %></blockquote>
<% } %><% if (rule.latitude) { %><p class="small muted">Latitude: <%~ include('@parts', { parts: rule.latitude }) %></p><% } %>
<p class="small"><%= rule.detail %></p>
<% if (rule.checks.length > 0) { %><details>
<summary class="small">Checks (<%= rule.checks.length %>)</summary>
<ul class="checks">
<% for (const check of rule.checks) { %><li><span class="s-<%= check.state %>"><%= check.state %></span> <%= check.title %><% if (check.failureAnchor) { %> — <a href="#<%= check.failureAnchor %>">the failure</a><% } %><% if (check.note) { %><br><span class="muted"><%= check.note %></span><% } %></li>
<% } %></ul>
</details><% } %>
</li>
<% } %></ol>
<% } %>
</section>

<section id="coverage" aria-labelledby="coverage-title">
<h2 id="coverage-title">Documented responses covered, per operation</h2>
<p class="small"><%= it.m.coverage.summary %></p>
<div class="chart">
<% for (const row of it.m.coverage.rows) { %><div class="label"><%= row.operationId %></div>
<svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="<%= row.observed %> of <%= row.documented %> documented responses observed"><rect class="bg" x="0" y="0" width="100" height="10"></rect><rect class="fg<%= row.percent === 100 ? ' full' : '' %>" x="0" y="0" width="<%= row.percent %>" height="10"></rect></svg>
<div class="value"><%= row.observed %> of <%= row.documented %></div>
<% if (row.missing.length > 0) { %><div class="note">not observed: <%= row.missing.join(', ') %></div><% } %>
<% } %></div>
</section>

<section id="timing" aria-labelledby="timing-title">
<h2 id="timing-title">Timing</h2>
<p><strong><%= it.m.timing.requests %></strong> requests in <strong><%= it.m.timing.seconds %> s</strong>: <strong><%= it.m.timing.perSecond %></strong> requests per second.</p>
<% if (it.m.timing.slowestOperations.length > 0) { %><h3>Slowest operations (by 95th percentile)</h3>
<div class="chart">
<% for (const op of it.m.timing.slowestOperations) { %><div class="label"><%= op.operation %></div>
<svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="95th percentile <%= op.p95 %>"><rect class="bg" x="0" y="0" width="100" height="10"></rect><rect class="fg" x="0" y="0" width="<%= op.percent %>" height="10"></rect></svg>
<div class="value">p95 <%= op.p95 %></div>
<div class="note"><%= op.count %> requests; median <%= op.p50 %>, slowest <%= op.max %></div>
<% } %></div><% } %>
<% if (it.m.timing.slowestChecks.length > 0) { %><h3>Slowest checks</h3>
<ol class="small">
<% for (const check of it.m.timing.slowestChecks) { %><li><%= check.title %> — <%= check.seconds %> s</li>
<% } %></ol><% } %>
</section>

<% if (it.m.runErrors.length > 0) { %><section id="run-errors"><h2>Run errors</h2>
<% for (const error of it.m.runErrors) { %><pre><%= error %></pre>
<% } %></section><% } %>
<% if (it.m.created.length > 0) { %><section id="created"><h2>Created or changed by this run</h2>
<ul class="small">
<% for (const line of it.m.created) { %><li><%= line %></li>
<% } %></ul></section><% } %>

<footer>Written by @cloud-api/conformance. Tokens and other secrets of the profile are masked; this file loads nothing from the network.</footer>
</main>
<script><%~ it.script %></script>
</body>
</html>
`;
