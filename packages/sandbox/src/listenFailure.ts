/** Says why `listen(port, host)` failed and what to pass instead, from the error's code. */
export function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use. Choose another --port, or --port 0 for a free one.`;
    case 'EACCES':
    case 'EPERM':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Choose a --port from 1024 to 65535, or --port 0.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `cannot listen on ${where}: the host name ${host} does not resolve. Use --host 127.0.0.1 or an address of this machine.`;
    default: {
      const reason = error instanceof Error ? error.message : String(error);
      return `cannot listen on ${where} (${code ?? reason}). Check --host and --port.`;
    }
  }
}
