// What the features that act on a serial number in the user's hands (the
// editor's hovers and links, the look-up) are given at wiring.
import type { EventsCache } from '../../eventsCache/eventsCache';
import type { Log } from '../log';
import type { SerialSettings } from '../serialSettings';
import type { ApiSession } from './apiSession';
import type { DetailsApi } from './detailsApi';
import type { MachinesApi } from './machinesApi';

export interface SerialFeatureDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  /** The one serial-number matcher (extension.ts builds it; the tree shares it). */
  readonly serialSettings: SerialSettings;
  readonly log: Log;
}
