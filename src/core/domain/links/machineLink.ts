// `<scheme>://onboarding-events.onboarding-events/machine?serial=…&environment=…&timestamp=…`. Anyone can
// write one, so it is read strictly: one path, each parameter once; unknown ones are ignored, not acted
// on, and `watch=1` is confirmed like any request from outside.
import { MAX_SERIAL_NUMBER_LENGTH } from '../../client/serialNumber';
import type { Localize } from '../../common/localize';
import { checkSerialNumber } from '../serialNumbers/serialNumberInput';

export const MACHINE_LINK_PATH = '/machine';
/** A query longer than this is no link we wrote. */
export const MAX_LINK_QUERY_LENGTH = 2048;
export const MAX_ENVIRONMENT_NAME_LENGTH = 100;

export interface MachineLink {
  readonly serialNumber: string;
  readonly environment?: string;
  readonly timestamp?: number;
  /** `watch=1`: the link asks to watch the machine's onboarding (which the user confirms: a link is anyone's). */
  readonly watch?: boolean;
}

export type ParsedMachineLink = { readonly ok: true; readonly link: MachineLink } | { readonly ok: false; readonly problem: string };

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function parseMachineLink(path: string, query: string, t: Localize): ParsedMachineLink {
  if (path !== MACHINE_LINK_PATH) return { ok: false, problem: t('it does not point to a machine') };
  if (query.length > MAX_LINK_QUERY_LENGTH) return { ok: false, problem: t('it is too long') };
  // Never throws: any string parses (a lone surrogate becomes U+FFFD).
  const params = new URLSearchParams(query);
  for (const name of ['serial', 'environment', 'timestamp', 'watch']) {
    if (params.getAll(name).length > 1) return { ok: false, problem: t('it names "{0}" more than once', name) };
  }
  const serial = params.get('serial');
  if (serial === null || serial.trim() === '') return { ok: false, problem: t('it names no serial number') };
  if (serial.length > MAX_SERIAL_NUMBER_LENGTH + 2) return { ok: false, problem: t('its serial number is too long') };
  const checked = checkSerialNumber(serial, t);
  if (!checked.ok) return { ok: false, problem: checked.message };
  let link: MachineLink = { serialNumber: checked.serialNumber };
  const environment = params.get('environment');
  if (environment !== null && environment.trim() !== '') {
    if (environment.length > MAX_ENVIRONMENT_NAME_LENGTH || CONTROL_CHARACTER.test(environment))
      return { ok: false, problem: t('its environment name cannot be one') };
    link = { ...link, environment: environment.trim() };
  }
  const timestamp = params.get('timestamp');
  if (timestamp !== null && timestamp !== '') {
    const value = /^-?\d{1,16}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
    if (!Number.isSafeInteger(value)) return { ok: false, problem: t('its timestamp is not a whole number') };
    link = { ...link, timestamp: value };
  }
  const watch = params.get('watch');
  if (watch === '1' || watch === 'true') link = { ...link, watch: true };
  return { ok: true, link };
}

export function machineLinkQuery(link: MachineLink): string {
  const params = new URLSearchParams({ serial: link.serialNumber });
  if (link.environment !== undefined) params.set('environment', link.environment);
  if (link.timestamp !== undefined) params.set('timestamp', String(link.timestamp));
  if (link.watch === true) params.set('watch', '1');
  return params.toString();
}
