/** Writes every timestamp the sandbox hands out, in UTC with `Z` or, as a variant, `+00:00`. */
export class SandboxClock {
  constructor(private readonly writeOffset: boolean) {}

  now(): number {
    return Date.now();
  }

  format(epochMs: number): string {
    const iso = new Date(epochMs).toISOString();
    return this.writeOffset ? `${iso.slice(0, -1)}+00:00` : iso;
  }

  timestamp(): string {
    return this.format(Date.now());
  }

  /** A timestamp strictly later than `previous`, so `updated_at` advances even within one millisecond. */
  laterThan(previous: string): string {
    const before = Date.parse(previous);
    const now = Date.now();
    return this.format(Number.isNaN(before) || now > before ? now : before + 1);
  }
}
