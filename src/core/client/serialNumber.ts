// Spec §4.1 gives no format: refuse only what can never be a serial number and would make a confusing request.

import { invalidInputError } from './errors';

/** Far above any real serial number; keeps a pasted log line from becoming a query. */
export const MAX_SERIAL_NUMBER_LENGTH = 128;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Bidi controls ("CBA" shown for "ABC"), zero-width characters and the BOM: never part of a serial number. */
export const INVISIBLE_OR_BIDI = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

/**
 * Markup VS Code renders in notifications and the status bar: a serial number holding it could turn a
 * message about it into a runnable link.
 */
export const RENDERED_MARKUP = /\]\(|\$\(/;

/** Why a string is no serial number whatever the pattern says, or undefined: control, bidi, zero-width characters, markup. */
export function unsafeSerialCharacters(value: string): 'control' | 'invisible' | 'markup' | undefined {
  if (CONTROL_CHARACTER.test(value)) return 'control';
  if (INVISIBLE_OR_BIDI.test(value)) return 'invisible';
  if (RENDERED_MARKUP.test(value)) return 'markup';
  return undefined;
}

export function normalizeSerialNumber(input: string): string {
  const serial = input.trim();
  if (serial === '') {
    throw invalidInputError((t) => t('Enter a serial number: it is empty.'));
  }
  if (serial.length > MAX_SERIAL_NUMBER_LENGTH) {
    throw invalidInputError((t) =>
      t('A serial number is at most {0} characters; this one has {1}. Check what was pasted.', MAX_SERIAL_NUMBER_LENGTH, serial.length),
    );
  }
  const unsafe = unsafeSerialCharacters(serial);
  if (unsafe === 'control') {
    throw invalidInputError((t) =>
      t('The serial number contains a control character (such as a tab or line break). Remove it and try again.'),
    );
  }
  if (unsafe === 'invisible') {
    throw invalidInputError((t) =>
      t(
        'The serial number contains an invisible or right-to-left formatting character, so it would not read as what it is. Type it again.',
      ),
    );
  }
  if (unsafe === 'markup') {
    throw invalidInputError((t) =>
      t('The serial number contains "](" or "$(", which are never part of a serial number. Check what was pasted.'),
    );
  }
  return serial;
}
