// The serial-number matcher the serialNumber.* settings define: built here once
// for the views, `oe check` and `oe mcp`, so they agree on what a serial number is.
import type { Localize } from '../../common/localize';
import type { Settings } from '../settings/settingsRules';
import { createSerialMatcher, type SerialMatcher } from './serialMatcher';

/** The matcher of `settings`; `t` words a refused pattern's problem (English without it). */
export function serialMatcherOf(
  settings: Pick<Settings, 'serialNumber.pattern' | 'serialNumber.minLength' | 'serialNumber.denyList'>,
  t?: Localize,
): SerialMatcher {
  return createSerialMatcher({
    pattern: settings['serialNumber.pattern'],
    minLength: settings['serialNumber.minLength'],
    denyList: settings['serialNumber.denyList'],
    t,
  });
}
