import { type ApiEnvironment, apiServers } from '@cloud-api/types';
import { BaseUrlError, TokenEnvironmentError } from './errors.js';

/** Base URLs by environment; an entry left undefined (e.g. an unset environment variable) is not given. */
export type EnvironmentUrls = {
  readonly production?: string | undefined;
  readonly development?: string | undefined;
};

export interface EnvironmentBinding {
  readonly environment: ApiEnvironment;
  /** Base URL every request of this client must start with (no trailing slash). */
  readonly baseUrl: string;
}

const prefixList = apiServers.map((s) => `\`${s.tokenPrefix}\``).join(' or ');

/**
 * Picks the environment from the token's prefix and the base URL from that environment, so a
 * token can only ever be sent to its own environment. Nothing of the token is ever echoed.
 */
export function bindEnvironment(options: {
  token: unknown;
  environments?: EnvironmentUrls | undefined;
  baseUrl?: string | undefined;
}): EnvironmentBinding {
  const { token } = options;
  if (typeof token !== 'string' || token.length === 0) {
    throw new TokenEnvironmentError(
      `No API token given: pass \`token\` (a platform API token starting with ${prefixList}).`,
    );
  }
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new TokenEnvironmentError(
      'The API token contains whitespace or characters outside printable ASCII, so it cannot be sent in ' +
        'an Authorization header; check for a stray newline or quote when it was copied.',
    );
  }
  const server = apiServers.find((s) => token.startsWith(s.tokenPrefix));
  if (!server || token.length === server.tokenPrefix.length) {
    throw new TokenEnvironmentError(
      `The API token starts with neither ${prefixList} (or has nothing after the prefix), so its ` +
        'environment is unknown; nothing was sent. Use a production or development token from the management portal.',
    );
  }

  const urls = new Map<ApiEnvironment, string>();
  for (const s of apiServers) {
    const override = options.environments?.[s.environment];
    urls.set(s.environment, normaliseBaseUrl(override ?? s.url, `environments.${s.environment}`));
  }
  const own = urls.get(server.environment) as string;
  const others = apiServers.filter((s) => s.environment !== server.environment);
  for (const other of others) {
    if (urls.get(other.environment) === own) {
      throw new BaseUrlError(
        `The ${server.environment} and ${other.environment} base URLs are both ${own}; ` +
          'each environment needs its own base URL, or tokens could reach the wrong one.',
      );
    }
  }

  if (options.baseUrl !== undefined) {
    const requested = normaliseBaseUrl(options.baseUrl, 'baseUrl');
    const otherEnvironment = others.find((o) => urls.get(o.environment) === requested);
    if (otherEnvironment) {
      throw new TokenEnvironmentError(
        `baseUrl ${requested} is the ${otherEnvironment.environment} base URL, but the token is a ` +
          `${server.environment} token (\`${server.tokenPrefix}\`); a token is valid only in its own environment. Nothing was sent.`,
      );
    }
    if (requested !== own) {
      throw new BaseUrlError(
        `baseUrl ${requested} is neither environment's base URL, so the client cannot tell that it belongs ` +
          `to the token's environment (${server.environment}). Name it instead: ` +
          `\`environments: { ${server.environment}: '${requested}' }\`.`,
      );
    }
  }
  if (
    options.environments?.[server.environment] === undefined &&
    new URL(own).hostname.endsWith('.invalid')
  ) {
    // The spec's server hosts are placeholders (A-SERVER-HOSTS): `.invalid` never resolves, so a
    // client left on one could only ever fail, and later, as "billing unavailable" or a DNS error.
    throw new BaseUrlError(
      `No base URL for the ${server.environment} environment: the API document does not show its host, and the ` +
        `default ${own} is a placeholder that can never be reached. Set \`environments.${server.environment}\` ` +
        `to your ${server.environment} base URL, e.g. createCloudClient({ …, environments: { ${server.environment}: 'https://…/v1' } }).`,
    );
  }
  return { environment: server.environment, baseUrl: own };
}

/** Checks an http(s) base URL ending in `/v1` (the version is part of the base address). */
export function normaliseBaseUrl(raw: unknown, optionName: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new BaseUrlError(`\`${optionName}\` must be a URL string such as https://api.example.com/v1.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BaseUrlError(`\`${optionName}\` (${JSON.stringify(raw)}) is not an absolute URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BaseUrlError(`\`${optionName}\` must use http or https, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new BaseUrlError(`\`${optionName}\` must not carry a query, a fragment or credentials.`);
  }
  const withoutSlash = url.href.replace(/\/$/, '');
  if (!withoutSlash.endsWith('/v1')) {
    throw new BaseUrlError(
      `\`${optionName}\` (${withoutSlash}) does not end with /v1; the API version is part of the base address, ` +
        `e.g. ${url.origin}/v1.`,
    );
  }
  return withoutSlash;
}
