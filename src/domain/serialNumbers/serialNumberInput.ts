// A serial number typed or passed by the user, checked by the core's rules
// (normalizeSerialNumber) and, when refused, told why in the user's language:
// the core's own messages stay English, as core has no vscode. Also what a
// command accepts as a serial number argument.
import { isApiError } from '../../core/errors';
import { MAX_SERIAL_NUMBER_LENGTH, normalizeSerialNumber, unsafeSerialCharacters } from '../../core/serialNumber';
import { isRecord } from '../../common/guards';
import type { Localize } from '../../common/localize';

export type SerialNumberInput = { readonly ok: true; readonly serialNumber: string } | { readonly ok: false; readonly message: string };

export function checkSerialNumber(input: string, t: Localize): SerialNumberInput {
  try {
    return { ok: true, serialNumber: normalizeSerialNumber(input) };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const trimmed = input.trim();
    if (trimmed === '') return { ok: false, message: t('Enter a serial number: it is empty.') };
    if (trimmed.length > MAX_SERIAL_NUMBER_LENGTH) {
      return {
        ok: false,
        message: t(
          'A serial number is at most {0} characters; this one has {1}. Check what was pasted.',
          MAX_SERIAL_NUMBER_LENGTH,
          trimmed.length,
        ),
      };
    }
    const unsafe = unsafeSerialCharacters(trimmed);
    if (unsafe === 'control') {
      return {
        ok: false,
        message: t('The serial number contains a control character (such as a tab or line break). Remove it and try again.'),
      };
    }
    if (unsafe === 'invisible') {
      return {
        ok: false,
        message: t(
          'The serial number contains an invisible or right-to-left formatting character, so it would not read as what it is. Type it again.',
        ),
      };
    }
    if (unsafe === 'markup') {
      return {
        ok: false,
        message: t('The serial number contains "](" or "$(", which are never part of a serial number. Check what was pasted.'),
      };
    }
    // A rule the core gained later: its own (English) words rather than none.
    return { ok: false, message: error.message };
  }
}

/**
 * The serial number a command was given, the one parser every command uses:
 * `'MX-4711-A0023'`, `{ serialNumber: 'MX-4711-A0023' }` (as command links,
 * hovers and the Machines tree's nodes pass it) or `{ event }` (an event
 * argument, whose event names its machine). Anything else, from whoever ran
 * the command, gives undefined. Not yet checked: pass it through
 * checkSerialNumber before using it as one.
 */
export function serialNumberArgument(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (!isRecord(arg)) return undefined;
  const value = arg['serialNumber'];
  if (typeof value === 'string') return value;
  const event = arg['event'];
  return isRecord(event) && typeof event['serialNumber'] === 'string' ? event['serialNumber'] : undefined;
}
