// What the features offer each other, passed in at wiring by extension.ts
// (feature folders never import each other): the Machines tree's API, the
// details panel's API, and what the features that act on a serial number in
// the user's hands (the editor's hovers and links, the look-up) are given.
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
  /** Whether a command argument is one of the tree's own elements (a menu passed it): our own UI, never another extension's. */
  ownsElement?(argument: unknown): boolean;
  /** Lets another feature (the watches) add to machine rows and to the view's badge, until disposed. */
  decorate?(decorations: MachineRowDecorations): IDisposable;
}

/** What another feature adds to a machine's row in the Machines view. */
export interface MachineRowDecoration {
  /** True while the machine is watched: the row's menus offer Stop Watching instead of Watch. */
  readonly watched: boolean;
  /** A codicon id shown instead of the row's load-state icon. */
  readonly icon?: string;
  /** Shown in place of the state word and age ("watching · DEVICE_REGISTERED · 2 min ago"). */
  readonly description?: string;
  /** A line added to the row's tooltip. */
  readonly tooltip: string;
}

/** Row decorations, and outcomes the view's badge counts until the user looks at them. */
export interface MachineRowDecorations {
  decoration(serialNumber: string): MachineRowDecoration | undefined;
  /** Outcomes not yet looked at (the badge adds them to the unseen events). */
  unseen(): number;
  /** The user looked at the machine in the view (expanded or selected it). */
  lookedAt(serialNumber: string): void;
  /** Serial numbers whose decoration changed; undefined: any. */
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
  readonly trust: Pick<ArgumentTrust, 'ownArgument' | 'fromOwnUi' | 'confirm'>;
}
