// What each serial number's state is, for the inline status, the Problems
// panel, quick fixes and completion: read from the shared events cache — its
// results and its failures, from memory — through the one eventStates
// mapping. Loads only what an editor shows, and only while
// signed in; everything is forgotten on sign-out or an environment switch.
import { isApiError } from '../core/errors';
import { Emitter, type Event } from '../common/emitter';
import { Debouncer } from '../common/delays';
import { Disposable } from '../common/lifecycle';
import { glanceStateOf, type GlanceState } from './glanceText';
import { NotSignedInError, type EventsCache } from '../eventsCache/eventsCache';
import { VisibleLoads } from '../eventsCache/visibleLoads';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';

export type { GlanceState } from './glanceText';

export interface GlanceStatesDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly log: Log;
}

export class GlanceStates extends Disposable {
  private readonly loads: VisibleLoads;
  private readonly changed = this.register(new Emitter<void>());
  /** A delay of 0: answers that land together (one scroll's worth) repaint once. */
  private readonly repaint = this.register(
    new Debouncer(
      () => {
        this.changed.fire();
      },
      0,
      'batch',
    ),
  );
  private environmentId: string | undefined;

  /** Some state may have changed (coalesced: once per burst of answers). */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly deps: GlanceStatesDeps) {
    super();
    const { session, events, settings } = deps;
    this.loads = new VisibleLoads({
      load: (serialNumber, signal) => this.load(serialNumber, signal),
      cache: events,
      periodMs: () => settings.value.cacheSeconds * 1000,
    });
    this.register(this.loads);
    this.environmentId = this.activeEnvironmentId();
    // A machine's answer landed (or its load settled): its state may read differently now.
    const repaint = (): void => {
      this.repaint.trigger();
    };
    this.register(events.onDidUpdate(repaint));
    this.register(this.loads.onDidSettle(repaint));
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('eventStates')) this.repaint.trigger();
      }),
    );
    this.register(
      session.onDidChangeState(() => {
        const next = this.activeEnvironmentId();
        // Signed out, rejected or another environment: nothing known so far belongs to it.
        if (next !== this.environmentId || next === undefined) this.loads.clear();
        this.environmentId = next;
        this.repaint.trigger();
      }),
    );
  }

  get signedIn(): boolean {
    return this.deps.events.signedIn;
  }

  /** The serial numbers editors now show: loads what is missing, cancels what scrolled away. */
  show(serialNumbers: readonly string[]): void {
    if (!this.signedIn) {
      this.loads.clear();
      return;
    }
    this.loads.show(serialNumbers);
  }

  /** Requests sent by the inline status so far (tests and the log). */
  get requestsSent(): number {
    return this.loads.requestsSent;
  }

  /** What is known of one serial number now; undefined while nothing is (or signed out). */
  stateOf(serialNumber: string): GlanceState | undefined {
    if (!this.signedIn) return undefined;
    return glanceStateOf(this.deps.events.peek(serialNumber), this.loads.failure(serialNumber), this.deps.settings.value.eventStates);
  }

  private activeEnvironmentId(): string | undefined {
    const state = this.deps.session.state;
    return state.kind === 'signed-in' ? state.environment.id : undefined;
  }

  private async load(serialNumber: string, signal: AbortSignal): Promise<unknown> {
    try {
      return await this.deps.events.get(serialNumber, { signal });
    } catch (error) {
      if (error instanceof NotSignedInError) throw error;
      if (!(isApiError(error) && (error.kind === 'cancelled' || error.kind === 'not-found' || error.kind === 'invalid-credentials')))
        this.deps.log.warn(`Inline status of ${serialNumber}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }
}
