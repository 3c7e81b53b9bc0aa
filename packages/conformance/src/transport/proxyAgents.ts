import type { Agent } from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';

/** How a request reaches the target: directly, or through the proxy the environment names. */
export interface ProxyRoute {
  /** The proxy's URL (credentials included, if the environment gave any), or undefined. */
  readonly proxyUrl: string | undefined;
  /** The agent that sends through it, its connections kept alive like the direct ones. */
  readonly agent: Agent | undefined;
}

/**
 * The proxy a corporate network asks for: HTTPS_PROXY / HTTP_PROXY / ALL_PROXY and NO_PROXY from
 * this process's environment, read by curl's rules (proxy-from-env); a CONNECT tunnel for https
 * targets, absolute-form requests for http ones.
 */
export function proxyRoute(target: URL, idleMs: number): ProxyRoute {
  const proxyUrl = getProxyForUrl(target.href);
  if (!proxyUrl) return { proxyUrl: undefined, agent: undefined };
  const options = { keepAlive: true, timeout: idleMs };
  const agent =
    target.protocol === 'https:'
      ? new HttpsProxyAgent(proxyUrl, options)
      : new HttpProxyAgent(proxyUrl, options);
  return { proxyUrl, agent };
}

/** The parts of a proxy URL that are secrets (its user and password, raw and decoded), for the redactor. */
export function proxySecrets(proxyUrl: string | undefined): string[] {
  if (!proxyUrl) return [];
  try {
    const url = new URL(proxyUrl);
    return [
      url.username,
      url.password,
      decodeURIComponent(url.username),
      decodeURIComponent(url.password),
    ].filter((part) => part.length > 0);
  } catch {
    return [];
  }
}
