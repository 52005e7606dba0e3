// Spec §4.1 rule 1: serialNumber must be supplied. The spec gives no format, so
// we only refuse what can never be a serial number and would make a confusing
// request: empty input, absurd lengths, control characters.

import { ApiError } from './errors';

/** Far above any real serial number; keeps a pasted log line from becoming a query. */
export const MAX_SERIAL_NUMBER_LENGTH = 128;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Trims and validates a serial number; throws ApiError('invalid-input') saying what is wrong. */
export function normalizeSerialNumber(input: string): string {
  const serial = input.trim();
  if (serial === '') {
    throw new ApiError('invalid-input', 'Enter a serial number: it is empty.');
  }
  if (serial.length > MAX_SERIAL_NUMBER_LENGTH) {
    throw new ApiError('invalid-input', `A serial number is at most ${MAX_SERIAL_NUMBER_LENGTH} characters; this one has ${serial.length}. Check what was pasted.`);
  }
  if (CONTROL_CHARACTER.test(serial)) {
    throw new ApiError('invalid-input', 'The serial number contains a control character (such as a tab or line break). Remove it and try again.');
  }
  return serial;
}
