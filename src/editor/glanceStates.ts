// What each serial number's state is, for the inline status, the Problems
// panel, quick fixes and completion: read from the shared events cache (never
// a request of its own) plus the failures VisibleLoads remembers, through the
// one eventStates mapping. Loads only what an editor shows, and only while
// signed in; everything is forgotten on sign-out or an environment switch.
import { isApiError } from '../core/errors';
import { Emitter, type Event } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import { glanceStateOf, type GlanceState } from './glanceText';
import { NotSignedInError, type EventsService } from '../eventsCache/eventsService';
import { VisibleLoads } from '../eventsCache/visibleLoads';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';

export type { GlanceState } from './glanceText';

export interface GlanceStatesDeps {
  readonly session: ApiSession;
  readonly events: EventsService;
  readonly settings: SettingsReader;
  readonly log: Log;
}

export class GlanceStates extends Disposable {
  private readonly loads: VisibleLoads;
  private readonly changed = this.register(new Emitter<void>());
  private timer: ReturnType<typeof setTimeout> | undefined;
  private environmentId: string | undefined;
  /**
   * Serial numbers the cache had nothing for when last asked. EventsService.peek
   * tries the on-disk copy on every miss (a failing file read each time), and
   * the Problems panel asks for every serial of every open file on every
   * answer: 1,000 misses cost ~25 ms. Forgotten when the cache says it has
   * news for the serial (onDidUpdate) or a load of ours settles.
   */
  private readonly misses = new Set<string>();

  /** Some state may have changed (coalesced: once per burst of answers). */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly deps: GlanceStatesDeps) {
    super();
    const { session, events, settings } = deps;
    this.loads = new VisibleLoads({
      load: (serialNumber, signal) => this.load(serialNumber, signal),
      isFresh: (serialNumber) => events.isFresh(serialNumber),
      periodMs: () => settings.value.cacheSeconds * 1000,
    });
    this.register(this.loads);
    this.environmentId = this.activeEnvironmentId();
    this.register(
      events.onDidUpdate((serialNumber) => {
        this.misses.delete(serialNumber);
        this.schedule();
      }),
    );
    this.register(
      this.loads.onDidSettle((serialNumber) => {
        this.misses.delete(serialNumber);
        this.schedule();
      }),
    );
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('eventStates')) this.schedule();
      }),
    );
    this.register(
      session.onDidChangeState(() => {
        const next = this.activeEnvironmentId();
        // Signed out, rejected or another environment: nothing known so far belongs to it.
        if (next !== this.environmentId || next === undefined) this.loads.clear();
        this.misses.clear();
        this.environmentId = next;
        this.schedule();
      }),
    );
    this.register(
      toDisposable(() => {
        if (this.timer !== undefined) clearTimeout(this.timer);
      }),
    );
  }

  get signedIn(): boolean {
    return this.deps.session.state.kind === 'signed-in';
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
    const errorKind = this.loads.failure(serialNumber);
    if (errorKind === undefined && this.misses.has(serialNumber)) return undefined;
    const state = glanceStateOf(this.deps.events.peek(serialNumber), errorKind, this.deps.settings.value.eventStates);
    if (state === undefined) {
      // Bounded: a workspace full of dumps must not grow it without end (a clear only costs file reads).
      if (this.misses.size >= 50_000) this.misses.clear();
      this.misses.add(serialNumber);
      return undefined;
    }
    return state;
  }

  private activeEnvironmentId(): string | undefined {
    const state = this.deps.session.state;
    return state.kind === 'signed-in' ? state.environment.id : undefined;
  }

  private schedule(): void {
    // A timer of 0: answers that land together (one scroll's worth) repaint once.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.changed.fire();
    }, 0);
  }

  private async load(serialNumber: string, signal: AbortSignal): Promise<unknown> {
    try {
      return await this.deps.events.get(serialNumber, { signal });
    } catch (error) {
      if (error instanceof NotSignedInError) throw error;
      if (isApiError(error) && error.kind === 'invalid-credentials') this.deps.session.reportCredentialsRejected();
      else if (!(isApiError(error) && (error.kind === 'cancelled' || error.kind === 'not-found')))
        this.deps.log.warn(`Inline status of ${serialNumber}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }
}
