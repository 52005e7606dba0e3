// Each serial number's state for the inline status, Problems, quick fixes and completion, from the
// shared cache's memory; loads only what an editor shows, while signed in.
import { isApiError } from '../../core/client/errors';
import { Emitter, type Event } from '../../core/common/emitter';
import { Debouncer } from '../../core/common/delays';
import { Disposable } from '../../core/common/lifecycle';
import { serialStatusOf, type SerialStatus } from './statusText';
import { NotSignedInError, type EventsCache } from '../../core/eventsCache/eventsCache';
import { VisibleLoads } from '../../core/eventsCache/visibleLoads';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';

export type { SerialStatus } from './statusText';

export interface SerialStatusesDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly log: Log;
}

const MAX_CHANGED_SERIALS = 10_000;

export class SerialStatuses extends Disposable {
  private readonly loads: VisibleLoads;
  private readonly changed = this.register(new Emitter<ReadonlySet<string> | undefined>());
  /** The serial numbers answered since the last repaint; undefined when anything may have changed (settings, session). */
  private changedSerials: Set<string> | undefined = new Set();
  /** A delay of 0: answers that land together (one scroll's worth) repaint once. */
  private readonly repaint = this.register(
    new Debouncer(
      () => {
        const serials = this.changedSerials;
        this.changedSerials = new Set();
        this.changed.fire(serials);
      },
      0,
      'batch',
    ),
  );
  private environmentId: string | undefined;

  /** Once per burst of answers: the serial numbers that may read differently, or undefined for all. */
  readonly onDidChange: Event<ReadonlySet<string> | undefined> = this.changed.event;

  constructor(private readonly deps: SerialStatusesDeps) {
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
    const repaint = (serialNumber: string): void => {
      this.changedOne(serialNumber);
    };
    this.register(events.onDidUpdate(repaint));
    this.register(this.loads.onDidSettle(repaint));
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('eventStates')) this.changedAll();
      }),
    );
    this.register(
      session.onDidChangeState(() => {
        const next = this.activeEnvironmentId();
        // Signed out, rejected or another environment: nothing known so far belongs to it.
        if (next !== this.environmentId || next === undefined) this.loads.clear();
        this.environmentId = next;
        this.changedAll();
      }),
    );
  }

  get signedIn(): boolean {
    return this.deps.session.state.kind === 'signed-in';
  }

  show(serialNumbers: readonly string[]): void {
    if (!this.signedIn) {
      this.loads.clear();
      return;
    }
    this.loads.show(serialNumbers);
  }

  get heldCount(): number {
    return this.loads.heldCount;
  }

  get onDidChangeHeld(): Event<number> {
    return this.loads.onDidChangeHeld;
  }

  loadHeld(): void {
    if (this.signedIn) this.loads.loadHeld();
  }

  stateOf(serialNumber: string): SerialStatus | undefined {
    if (!this.signedIn) return undefined;
    return serialStatusOf(this.deps.events.peek(serialNumber), this.loads.failure(serialNumber), this.deps.settings.value.eventStates);
  }

  private changedOne(serialNumber: string): void {
    // Bounded: past this many, "all of them" is as cheap to say and to act on.
    if (this.changedSerials !== undefined && this.changedSerials.size < MAX_CHANGED_SERIALS) this.changedSerials.add(serialNumber);
    else this.changedSerials = undefined;
    this.repaint.trigger();
  }

  private changedAll(): void {
    this.changedSerials = undefined;
    this.repaint.trigger();
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
