#!/usr/bin/env node
// The contract gate's run step, kept out of action.yml so a test can run it locally (against the
// sandbox) exactly as the runner does. It turns the action's inputs into CLI options (never
// through a shell: an input cannot inject a command), runs the installed CLI, appends the
// Markdown summary to $GITHUB_STEP_SUMMARY with each failure's replay file named inside the
// uploaded artifact, sets the step outputs and exits with the CLI's exit code.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const REPORTERS = ['table', 'json', 'junit', 'markdown', 'html', 'har', 'ndjson'];
/** Written whatever the caller picks: the artifact, the job summary and the pull-request comment need them. */
const ALWAYS = ['json', 'junit', 'markdown', 'html', 'har'];
const VERDICTS = {
  0: 'passed',
  1: 'failed',
  2: 'bad-input',
  3: 'incomplete',
  130: 'interrupted',
  143: 'interrupted',
};

/** One line naming the input and what to do, then exit 2 (bad input) before anything runs. */
function refuse(message) {
  console.error(`::error title=Contract gate::${message}`);
  process.exit(2);
}

/** The action's inputs, checked. Exported for the test; `env` is process.env in the action. */
export function gateOptions(env) {
  const profile = (env.INPUT_PROFILE ?? '').trim();
  if (!profile) refuse('input "profile" is required: the path of your target profile (or "sandbox")');
  const strict = (env.INPUT_STRICT ?? 'true').trim();
  if (strict !== 'true' && strict !== 'false')
    refuse(`input "strict" must be "true" or "false", not "${strict}"`);
  const depth = (env.INPUT_DEPTH ?? '').trim();
  if (depth && !/^[1-9]\d*$/.test(depth)) refuse(`input "depth" must be a positive integer, not "${depth}"`);
  const shard = (env.INPUT_SHARD ?? '').trim();
  if (shard && !/^[1-9]\d*\/[1-9]\d*$/.test(shard))
    refuse(`input "shard" must look like "1/3", not "${shard}"`);
  const asked = (env.INPUT_REPORTERS ?? '').split(/[\s,]+/).filter(Boolean);
  const unknown = asked.filter((name) => !REPORTERS.includes(name));
  if (unknown.length > 0)
    refuse(`input "reporters": unknown ${unknown.join(', ')} (known: ${REPORTERS.join(', ')})`);
  const reporters = REPORTERS.filter((name) => asked.includes(name) || ALWAYS.includes(name));
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const outDir = resolve(
    env.RUNNER_TEMP ?? workspace,
    `conformance-reports${shard ? `-${shard.replace('/', 'of')}` : ''}`,
  );
  const target =
    profile === 'sandbox' || profile === 'prism' || isAbsolute(profile) ? profile : join(workspace, profile);
  const args = [
    '--target',
    target,
    ...(strict === 'true' ? ['--strict'] : []),
    ...(depth ? ['--depth', depth] : []),
    ...(shard ? ['--shard', shard] : []),
    ...reporters.flatMap((name) => ['--reporter', name]),
    '--out',
    outDir,
    ...(env.INPUT_ARGS ?? '').split(/\s+/).filter(Boolean),
  ];
  const artifactName =
    (env.INPUT_ARTIFACT_NAME ?? '').trim() ||
    `conformance-${env.GITHUB_JOB ?? 'gate'}${shard ? `-shard-${shard.replace('/', 'of')}` : ''}`;
  return { args, outDir, artifactName };
}

/**
 * The CLI's Markdown summary, with each replay path made relative to the artifact and linked
 * to the run's artifacts (a file inside an artifact has no URL of its own), and a closing line
 * naming the HTML report and the HAR in that artifact.
 */
export function summaryFor(markdown, { outDir, artifactName, runUrl }) {
  const prefix = `${outDir}/`;
  const artifact = runUrl ? `[\`${artifactName}\`](${runUrl}#artifacts)` : `\`${artifactName}\``;
  const linked = markdown.replace(/replay: `([^`]+)`/g, (_whole, path) => {
    const inArtifact = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const where = runUrl ? `[\`${inArtifact}\`](${runUrl}#artifacts)` : `\`${inArtifact}\``;
    return `replay: ${where} in artifact \`${artifactName}\``;
  });
  const evidence = `Evidence in artifact ${artifact}: \`conformance-report.html\` (open it in a browser: each failure's counterexample, exchanges and replay command), \`conformance.har\` (every request and answer, secrets masked) and the JSON and JUnit reports.`;
  return `${linked}\n${evidence}\n`;
}

function runCli(bin, args) {
  return new Promise((resolveExit, reject) => {
    const child = spawn(bin, args, { stdio: 'inherit' });
    // The runner cancels a job with SIGINT then SIGTERM: hand both to the CLI, which stops
    // the check in progress and still writes its reports.
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('error', reject);
    child.on('close', (code, signal) => resolveExit(code ?? (signal === 'SIGTERM' ? 143 : 130)));
  });
}

async function main() {
  const env = process.env;
  const bin = env.CONFORMANCE_BIN;
  if (!bin || !existsSync(bin)) refuse(`the conformance CLI is not installed (CONFORMANCE_BIN=${bin ?? ''})`);
  const { args, outDir, artifactName } = gateOptions(env);
  mkdirSync(outDir, { recursive: true });
  const code = await runCli(bin, args);
  const verdict = VERDICTS[code] ?? 'failed';
  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const summaryFile = join(outDir, 'conformance-summary.md');
  if (env.GITHUB_STEP_SUMMARY) {
    const text = existsSync(summaryFile)
      ? summaryFor(readFileSync(summaryFile, 'utf8'), { outDir, artifactName, runUrl })
      : `## Conformance: ${verdict} (exit ${code})\n\nNo report was written; the step's log says why.\n`;
    appendFileSync(env.GITHUB_STEP_SUMMARY, text);
  }
  if (env.GITHUB_OUTPUT)
    appendFileSync(
      env.GITHUB_OUTPUT,
      `exit-code=${code}\nverdict=${verdict}\nreport-dir=${outDir}\nartifact-name=${artifactName}\n`,
    );
  process.exit(code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
