import type { Agent } from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';
import { RunSetupError } from '../run/runSetupError.js';
import { MIN_SECRET_LENGTH } from '../targetProfile/index.js';

/** How a request reaches the target: directly, or through the proxy the environment names. */
export interface ProxyRoute {
  /** The proxy's URL (credentials included, if the environment gave any), or undefined. */
  readonly proxyUrl: string | undefined;
  /** The environment variable that named it (`HTTPS_PROXY`), for messages. */
  readonly variable: string | undefined;
  /** The agent that sends through it, its connections kept alive like the direct ones. */
  readonly agent: Agent | undefined;
  /** A new agent through it whose one connection closes after its request (a retry's own). */
  readonly freshAgent: (() => Agent) | undefined;
}

/**
 * The proxy a corporate network asks for: HTTPS_PROXY / HTTP_PROXY / ALL_PROXY and NO_PROXY from
 * this process's environment, read by curl's rules (proxy-from-env); a CONNECT tunnel for https
 * targets, absolute-form requests for http ones.
 */
export function proxyRoute(target: URL, idleMs: number): ProxyRoute {
  const proxyUrl = getProxyForUrl(target.href);
  if (!proxyUrl) return { proxyUrl: undefined, variable: undefined, agent: undefined, freshAgent: undefined };
  const variable = proxyVariable(target, process.env);
  const scheme = URL.canParse(proxyUrl) ? new URL(proxyUrl).protocol : '';
  // A SOCKS URL given to an HTTP proxy agent would be spoken to in HTTP: every request would fail
  // with "connection reset", blaming the target.
  if (scheme !== 'http:' && scheme !== 'https:')
    throw new RunSetupError(
      `${variable} names a ${scheme ? `${scheme.replace(/:$/, '')}://` : 'malformed'} proxy; the suite reaches targets only through HTTP proxies (an http:// or https:// proxy URL, with CONNECT for https targets). Give an HTTP proxy there, or list ${target.hostname} in NO_PROXY if the target needs none.`,
    );
  const agentWith = (options: { keepAlive: boolean; timeout?: number }): Agent =>
    target.protocol === 'https:'
      ? new HttpsProxyAgent(proxyUrl, options)
      : new HttpProxyAgent(proxyUrl, options);
  return {
    proxyUrl,
    variable,
    agent: agentWith({ keepAlive: true, timeout: idleMs }),
    freshAgent: () => agentWith({ keepAlive: false }),
  };
}

/** The variable proxy-from-env read the proxy from, in the order it reads them. */
function proxyVariable(target: URL, env: NodeJS.ProcessEnv): string {
  const scheme = target.protocol.replace(/:$/, '');
  const names = [
    `npm_config_${scheme}_proxy`,
    `${scheme}_proxy`,
    `${scheme.toUpperCase()}_PROXY`,
    'npm_config_proxy',
    'all_proxy',
    'ALL_PROXY',
  ];
  return names.find((name) => env[name]) ?? `${scheme.toUpperCase()}_PROXY`;
}

/**
 * The parts of a proxy URL that are secrets, for the redactor: the user and password together (as
 * in the URL, decoded, and as the Basic credential the proxy gets), and each alone when it is long
 * enough to mask without masking ordinary text (a one-letter password would turn every "u" of the
 * report into a mask).
 */
export function proxySecrets(proxyUrl: string | undefined): string[] {
  if (!proxyUrl) return [];
  try {
    const url = new URL(proxyUrl);
    if (!url.username && !url.password) return [];
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    const joined = [`${url.username}:${url.password}`, `${user}:${password}`];
    return [
      ...joined,
      ...joined.map((pair) => Buffer.from(pair).toString('base64')),
      ...[url.username, url.password, user, password].filter((part) => part.length >= MIN_SECRET_LENGTH),
    ];
  } catch {
    return [];
  }
}
