import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIsoDateTime, isUtcDateTime } from '../src/spec/isoTimestamp.js';
import { createResponseValidator } from '../src/spec/responseValidator.js';

const instants = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
});

describe("the document's datetime, read strictly", () => {
  it.each([
    ['2026-11-25T06:10:00Z', true],
    ['2026-11-25T06:10:00.123456789Z', true],
    ['2026-11-25t06:10:00z', true],
    ['2026-11-25T06:10:00+00:00', true],
    ['2026-11-25T06:10:00.000+00', true],
    ['2026-11-25T06:10:00+0000', false],
    ['2024-02-29T23:59:60Z', true],
    ['2024-01-01 10:00:00.123000+00:00', false],
    ['2026-11-25T06:10Z', false],
    ['2026-11-25T06:10:00', false],
    ['2023-02-29T00:00:00Z', false],
    ['2026-04-31T00:00:00Z', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-11-25T24:00:00Z', false],
    ['2026-11-25T06:10:00+24:00', false],
    ['2026-11-25T06:10:00.Z', false],
  ])('%s is an ISO 8601 date-time: %s', (text, valid) => {
    expect(isIsoDateTime(text)).toBe(valid);
  });

  it('UTC only: Z, +00:00 or +00, never another offset', () => {
    expect(isUtcDateTime('2026-11-25T06:10:00+00')).toBe(true);
    expect(isUtcDateTime('2026-11-25T08:10:00+02')).toBe(false);
    expect(isUtcDateTime('2026-11-25T08:10:00+02:00')).toBe(false);
    expect(isIsoDateTime('2026-11-25T08:10:00+02:00')).toBe(true);
    expect(isUtcDateTime(1732515000)).toBe(false);
  });

  it('property: every instant written by toISOString is a UTC date-time, and never with a space for T', () => {
    fc.assert(
      fc.property(instants, (instant) => {
        const iso = instant.toISOString();
        expect(isUtcDateTime(iso)).toBe(true);
        expect(isIsoDateTime(iso.replace('T', ' '))).toBe(false);
      }),
    );
  });

  it('RESP-1 refuses a backup policy whose created_at has a space for T (ajv-formats alone accepts it)', () => {
    const validator = createResponseValidator();
    const policy = (createdAt: string) => ({
      organization_id: 'org-1',
      workspace_id: '1042',
      policy_id: 'pol-1',
      vm_id: 'vm-gpu-1',
      enabled: true,
      schedule: { timezone: 'UTC', hour: 20, minute: 0, window_minutes: 30 },
      retention_days: 7,
      full_backup_interval_days: 7,
      incremental_enabled: true,
      storage_backend: 'object-storage',
      created_at: createdAt,
      updated_at: '2026-11-25T06:10:00Z',
    });
    expect(validator.check('enableGpuVmBackups', 200, policy('2026-11-25T06:10:00Z')).mustErrors).toEqual([]);
    const spaced = validator.check('enableGpuVmBackups', 200, policy('2026-11-25 06:10:00.123000+00:00'));
    expect(spaced.mustErrors.join('\n')).toMatch(/created_at must match format "date-time"/);
  });
});
