// What the features offer each other, passed in at wiring by extension.ts
// (feature folders never import each other): the Machines tree's API, the
// details panel's API, and what the features that act on a serial number in
// the user's hands (the editor's hovers and links, the look-up) are given.
import type { Event } from '../../common/emitter';
import type { OnboardingEvent } from '../../core/model';
import type { EventsCache } from '../../eventsCache/eventsCache';
import type { ArgumentTrust } from '../argumentTrust';
import type { Log } from '../log';
import type { SerialSettings } from '../serialSettings';
import type { ApiSession } from './apiSession';

/** What the Machines tree offers the hovers, links and the look-up. */
export interface MachinesApi {
  /** Shows the machine in the sidebar (adding it to "Recent" when it is not listed) and selects it. */
  reveal(serialNumber: string): Promise<void>;
  /**
   * For other extensions (the exported API): selects the machine only when it
   * is already listed (pinned, recent or found in the workspace), without
   * loading or expanding it — no request is made on their behalf. False when
   * it is not listed.
   */
  revealListed?(serialNumber: string): Promise<boolean>;
  /** Pins the machine (per the tree.pinnedScope setting). */
  pin(serialNumber: string): Promise<void>;
  /** Records a look-up in the "Recent" group and the look-up history. */
  addRecent(serialNumber: string): void;
  /** Serial numbers the user pinned, and recent look-ups, newest first. */
  pinned(): readonly string[];
  recent(): readonly string[];
  /** Serial numbers the workspace scan found (empty until it ran); optional for stand-ins. */
  workspace?(): readonly string[];
  clearRecent(): void;
  /** The machines selected in the Machines view, in selection order (a group stands for its machines); optional for stand-ins. */
  selected?(): readonly string[];
  /** The pinned, recent or workspace machines (or their data) changed; optional for stand-ins. */
  readonly onDidChange?: Event<unknown>;
}

/** What the details feature offers the tree, the hovers and the look-up; the page protocol stays inside src/details/. */
export interface DetailsApi {
  /** Opens (or reveals, or retargets the preview panel to) the details of one event. */
  show(event: OnboardingEvent): Promise<void>;
}

export interface SerialFeatureDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  /** The one serial-number matcher (extension.ts builds it; the tree shares it). */
  readonly serialSettings: SerialSettings;
  readonly log: Log;
  /** The one rule for other extensions: marks our own links and buttons, asks about anyone else's arguments (workbench/argumentTrust.ts). */
  readonly trust: Pick<ArgumentTrust, 'ownArgument' | 'fromOwnUi' | 'confirm' | 'silent'>;
}
