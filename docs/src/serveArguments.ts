import { isIP } from 'node:net';
import { resolve } from 'node:path';

export const DEFAULT_PORT = 4173;

export const SERVE_USAGE =
  'Usage: pnpm docs:serve [--port <0-65535>] [--host <address>] [--dir <site folder>]   (PORT=<port> also works)';

export interface ServeArguments {
  readonly port: number;
  readonly host: string;
  /** The built site to serve; undefined: the docs package's own `site/`. */
  readonly siteDir: string | undefined;
  readonly help: boolean;
}

/** A command line the docs server cannot act on; the message says what to pass instead. */
export class ServeUsageError extends Error {}

function parsePort(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ServeUsageError(
      `${source} must be a port number from 0 to 65535 (0 picks a free port), got "${raw}".`,
    );
  }
  return Number(raw);
}

function parseHost(raw: string): string {
  if (raw.trim() === '' || (/^[\d.]+$/.test(raw) && isIP(raw) !== 4)) {
    throw new ServeUsageError(`--host must be an address of this machine such as 127.0.0.1, got "${raw}".`);
  }
  return raw;
}

/** Reads `--port N`, `--port=N`, `--host`, `--dir` and `--help`; anything else is refused. */
export function parseServeArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ServeArguments {
  let port: number | undefined;
  let host = '127.0.0.1';
  let siteDir: string | undefined;
  let help = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--help' || argument === '-h') {
      help = true;
      continue;
    }
    const match = /^(--port|--host|--dir)(?:=(.*))?$/.exec(argument);
    if (!match) {
      throw new ServeUsageError(
        argument.startsWith('-')
          ? `unknown option ${argument}.`
          : `unexpected argument "${argument}" (this command takes only options).`,
      );
    }
    const name = match[1] ?? '';
    let value = match[2];
    if (value === undefined) {
      value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) {
        throw new ServeUsageError(
          `${name} needs a value, e.g. ${name} ${name === '--port' ? '8080' : name === '--host' ? '127.0.0.1' : 'docs/site'}.`,
        );
      }
      index += 1;
    }
    if (name === '--port') port = parsePort(value, '--port');
    else if (name === '--host') host = parseHost(value);
    else siteDir = resolve(value);
  }
  if (port === undefined) {
    const fromEnv = env.PORT;
    port = fromEnv === undefined || fromEnv === '' ? DEFAULT_PORT : parsePort(fromEnv, 'The PORT variable');
  }
  return { port, host, siteDir, help };
}

/** Says why listening failed and what to pass instead. */
export function describeListenFailure(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (another docs server?). Stop it, or pass --port <another port> (--port 0 picks a free one).`;
    case 'EACCES':
    case 'EPERM':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Pass --port 4173, or --port 0.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine. Pass --host 127.0.0.1.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name ${host} does not resolve. Pass --host 127.0.0.1.`;
    default:
      return `cannot listen on ${where} (${code ?? (error instanceof Error ? error.message : String(error))}).`;
  }
}
