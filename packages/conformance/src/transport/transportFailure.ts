import { BODY_CUT_SHORT } from './responseBody.js';
import { ProxyTunnelRefused } from './wireClient.js';

/** Certificate problems Node reports by code: a private CA or a self-signed certificate, mostly. */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);

/** Where requests go, for messages that say which hop failed. */
export interface Route {
  /** `host:port` of the base URL. */
  readonly address: string;
  readonly host: string;
  readonly secure: boolean;
  /** The proxy, without its credentials, and the variable that named it; absent when direct. */
  readonly proxy?:
    | { readonly origin: string; readonly variable: string; readonly withCredentials: boolean }
    | undefined;
}

/** Failures before any HTTP server at the base URL answered: the address, DNS, TLS, the proxy. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'PROXY_TUNNEL_REFUSED',
  ...UNTRUSTED_CERTIFICATE,
]);

/** A transport failure in words a user can act on, and whether the target was reached at all. */
export function describeTransportFailure(
  error: unknown,
  route: Route,
): { reason: string; unreachable: boolean; dropped?: boolean } {
  const err = error as { name?: string; code?: string; message?: string; status?: number };
  const code = err.code ?? '';
  const unreachable = UNREACHABLE.has(code);
  const { proxy } = route;
  const viaProxy = proxy ? ` (through the proxy ${proxy.origin} that ${proxy.variable} names)` : '';
  const said = (reason: string) => ({ reason, unreachable });
  if (error instanceof ProxyTunnelRefused)
    return said(
      `the proxy ${proxy?.origin ?? ''} that ${proxy?.variable ?? 'the environment'} names refused a tunnel to ${route.address}: ${error.message}${error.status === 407 ? (proxy?.withCredentials ? ' (it refused the credentials the proxy URL gives)' : ' (it wants credentials: give them in the proxy URL, http://user:password@host:port)') : ''}; check the proxy variable, or NO_PROXY for this host`,
    );
  if (proxy && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code))
    return said(
      `the proxy ${proxy.origin} that ${proxy.variable} names could not be reached (${code}); check that variable, or set NO_PROXY for ${route.host} if the target needs no proxy`,
    );
  if (code === BODY_CUT_SHORT) return said(`answer cut short: ${err.message ?? ''}${viaProxy}`);
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return { ...said(`connection reset by the server${viaProxy}`), dropped: true };
  if (code === 'ECONNREFUSED')
    return said(
      `connection refused: nothing listens at ${route.address} (is the target running? are baseUrl's host and port right?)`,
    );
  if (code === 'ENOTFOUND')
    return said(`the host name ${route.host} does not resolve (ENOTFOUND): is baseUrl's host spelled right?`);
  if (code === 'EAI_AGAIN')
    return said(`the host name ${route.host} could not be resolved (EAI_AGAIN: no answer from DNS)`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return said(`${route.host} cannot be reached from this machine (${code})`);
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return said(
      `the TLS handshake with ${route.address} failed${viaProxy}: ${route.secure ? 'the server there does not seem to speak HTTPS (should baseUrl start with http://?)' : 'a TLS error on a plain connection'}`,
    );
  if (UNTRUSTED_CERTIFICATE.has(code))
    return said(
      `TLS: the target's certificate is not trusted (${code}); if your organisation signs it with its own CA, set NODE_EXTRA_CA_CERTS to that CA's PEM file`,
    );
  if (code === 'CERT_HAS_EXPIRED' || code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return said(
      `TLS: the target's certificate is refused (${code}: ${err.message ?? ''}); check baseUrl's host, or the certificate`,
    );
  return said(`${code || err.name || 'error'}: ${err.message ?? String(error)}${viaProxy}`);
}

/** A 407 answered to a request (not to a tunnel): only a proxy sends it, whichever one it was. */
export function proxyAuthenticationRequired(route: Route): string {
  const { proxy } = route;
  return `a proxy between the suite and the target answered 407 Proxy Authentication Required${proxy ? ` (the proxy ${proxy.origin} that ${proxy.variable} names: ${proxy.withCredentials ? 'it refused the credentials that URL gives' : 'give its credentials in that URL, http://user:password@host:port'})` : ' (a proxy this machine goes through without HTTP(S)_PROXY saying so?)'}`;
}
