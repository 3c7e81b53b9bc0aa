/** A target the engine started itself and must stop (also on failure and Ctrl-C). */
export interface RunningTarget {
  readonly baseUrl: string;
  stop(): Promise<void>;
}
