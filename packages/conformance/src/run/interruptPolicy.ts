/** Shell convention: 128 + the signal number. */
export const EXIT_CODE_OF_SIGNAL = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof EXIT_CODE_OF_SIGNAL;

/**
 * How soon after the first a signal is a wrapper passing the same interrupt on, not a second
 * Ctrl-C: a terminal's Ctrl-C reaches the whole process group, and pnpm passes its own on to the
 * CLI at once (as SIGINT or SIGTERM). Both arrive within milliseconds, so a user's second Ctrl-C,
 * a moment later, still forces.
 */
export const WRAPPER_COPY_MS = 500;

/**
 * Whether a signal received while the run is already stopping forces the exit: not the first one
 * counted (after a stop for a vanished launcher), and not a copy of it.
 */
export function forcesExit(first: { readonly at: number } | undefined, now: number): boolean {
  return first !== undefined && now - first.at >= WRAPPER_COPY_MS;
}
