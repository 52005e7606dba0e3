// What features offer each other, passed in at wiring: feature folders never import each other.
import type { Event } from '../../../core/common/emitter';
import type { IDisposable } from '../../../core/common/lifecycle';
import type { OnboardingEvent } from '../../../core/client/model';
import type { EventsCache } from '../../../core/eventsCache/eventsCache';
import type { ArgumentTrust } from '../argumentTrust';
import type { Log } from '../log';
import type { SerialSettings } from '../serialSettings';
import type { ApiSession } from './apiSession';
import type { WatchStartAnswer, WatchSummary } from '../../../core/domain/watch/watchRules';

// Plain data the agent tools' pure result text reads too, so they live in the domain.
export type { WatchStartAnswer, WatchSummary } from '../../../core/domain/watch/watchRules';

export interface MachinesApi {
  /** Shows the machine in the sidebar (adding it to "Recent" when it is not listed) and selects it. */
  reveal(serialNumber: string): Promise<void>;
  /** For other extensions: selects the machine only when already listed, loading nothing on their behalf. */
  revealListed?(serialNumber: string): Promise<boolean>;
  pin(serialNumber: string): Promise<void>;
  addRecent(serialNumber: string): void;
  pinned(): readonly string[];
  recent(): readonly string[];
  /** Serial numbers the workspace scan found (empty until it ran); optional for stand-ins. */
  workspace?(): readonly string[];
  clearRecent(): void;
  /** The machines selected in the Machines view, in selection order (a group stands for its machines); optional for stand-ins. */
  selected?(): readonly string[];
  readonly onDidChange?: Event<unknown>;
  /** Whether a command argument is one of the tree's own elements (a menu passed it): our own UI, never another extension's. */
  ownsElement?(argument: unknown): boolean;
  /** Lets another feature (the watches) add to machine rows and to the view's badge, until disposed. */
  decorate?(decorations: MachineRowDecorations): IDisposable;
}

export interface MachineRowDecoration {
  /** True while the machine is watched: the row's menus offer Stop Watching instead of Watch. */
  readonly watched: boolean;
  readonly icon?: string;
  /** Shown in place of the state word and age ("watching · DEVICE_REGISTERED · 2 min ago"). */
  readonly description?: string;
  readonly tooltip: string;
}

export interface MachineRowDecorations {
  decoration(serialNumber: string): MachineRowDecoration | undefined;
  unseen(): number;
  lookedAt(serialNumber: string): void;
  readonly onDidChange: Event<readonly string[] | undefined>;
}

/**
 * What the watch feature offers others (the agent tools, once wired): the
 * watches of the signed-in environment, and starting one. `startWatch` asks
 * nobody: the caller has already confirmed with the user (a tool's
 * confirmation), as the machine commands' own UI does.
 */
export interface WatchesApi {
  watches(): readonly WatchSummary[];
  startWatch(serialNumber: string): Promise<WatchStartAnswer>;
}

/** What the details feature offers the tree, the hovers and the look-up; the page protocol stays inside src/extension/details/. */
export interface DetailsApi {
  show(event: OnboardingEvent): Promise<void>;
}

export interface SerialFeatureDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  readonly serialSettings: SerialSettings;
  readonly log: Log;
  /** The one rule for other extensions: marks our own links and buttons, asks about anyone else's arguments (workbench/argumentTrust.ts). */
  readonly trust: Pick<ArgumentTrust, 'ownArgument' | 'fromOwnUi' | 'confirm'>;
}
