// Spec §2.2: `timestamp` is an int64 whose unit and epoch are "not shown". We
// assume the Unix epoch and detect the unit from the magnitude, keeping the raw
// value so a wrong guess never loses information.

import type { EventTime, TimestampUnit } from './model';

export type TimestampUnitSetting = 'auto' | TimestampUnit;

/**
 * Values whose magnitude is below 1e11 are read as seconds, others as
 * milliseconds. 1e11 seconds is the year 5138 and 1e11 milliseconds is March
 * 1973, so for any event recorded since 1973 and before 5138 the two readings
 * cannot be confused.
 */
export const SECONDS_THRESHOLD = 1e11;

export function detectTimestampUnit(raw: number): TimestampUnit {
  return Math.abs(raw) < SECONDS_THRESHOLD ? 'seconds' : 'milliseconds';
}

export function toEventTime(raw: number, setting: TimestampUnitSetting = 'auto'): EventTime {
  const detected = setting === 'auto';
  const unit = detected ? detectTimestampUnit(raw) : setting;
  return { raw, epochMs: unit === 'seconds' ? raw * 1000 : raw, unit, detected };
}
