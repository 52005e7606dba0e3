// A serial number typed or passed by the user, checked by the core's rules
// (normalizeSerialNumber) and, when refused, told why in the user's language
// (the core's refusal carries its text for any t). Also what a command accepts
// as a serial number argument.
import { isApiError } from '../../client/errors';
import { normalizeSerialNumber } from '../../client/serialNumber';
import { errorMessage } from '../../common/errors';
import { isRecord } from '../../common/guards';
import type { Localize } from '../../common/localize';

export type SerialNumberInput = { readonly ok: true; readonly serialNumber: string } | { readonly ok: false; readonly message: string };

export function checkSerialNumber(input: string, t: Localize): SerialNumberInput {
  try {
    return { ok: true, serialNumber: normalizeSerialNumber(input) };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { ok: false, message: errorMessage(error, t) };
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
