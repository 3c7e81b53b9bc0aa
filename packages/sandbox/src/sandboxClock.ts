/**
 * How the sandbox writes a timestamp: `Z` (default), `+00:00` and nanoseconds (variants, both
 * ISO 8601 in UTC), or with a space for `T` (a fault: what a default string conversion of a
 * database or language timestamp type writes).
 */
export type TimestampNotation = 'Z' | '+00:00' | '+00' | 'nanoseconds' | 'space-separated';

/**
 * Where the sandbox's clock stands: `skewMs` moves the whole server clock (timestamps and the
 * Date header alike, as on a server whose clock runs ahead); `zoneMs` moves only what timestamps
 * say (a local wall-clock time written with `Z`, as a server in another time zone does by mistake).
 */
export interface ClockSetting {
  readonly skewMs?: number;
  readonly zoneMs?: number;
}

/** Writes every timestamp the sandbox hands out. */
export class SandboxClock {
  readonly skewMs: number;
  private readonly zoneMs: number;

  constructor(
    private readonly notation: TimestampNotation = 'Z',
    setting: ClockSetting = {},
  ) {
    this.skewMs = setting.skewMs ?? 0;
    this.zoneMs = setting.zoneMs ?? 0;
  }

  now(): number {
    return Date.now() + this.skewMs;
  }

  format(epochMs: number): string {
    const iso = new Date(epochMs + this.zoneMs).toISOString();
    switch (this.notation) {
      case '+00:00':
        return `${iso.slice(0, -1)}+00:00`;
      case '+00':
        return `${iso.slice(0, -1)}+00`;
      case 'nanoseconds':
        return `${iso.slice(0, -1)}${String(epochMs % 1000).padStart(3, '0')}417Z`;
      case 'space-separated':
        return `${iso.slice(0, 10)} ${iso.slice(11, -1)}000+00:00`;
      default:
        return iso;
    }
  }

  timestamp(): string {
    return this.format(this.now());
  }

  /** A timestamp strictly later than `previous`, so `updated_at` advances even within one millisecond. */
  laterThan(previous: string): string {
    const before = Date.parse(previous.replace(' ', 'T')) - this.zoneMs;
    const now = this.now();
    return this.format(Number.isNaN(before) || now > before ? now : before + 1);
  }
}
