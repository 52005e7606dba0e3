// What the integration tests observe of the event details, and the observer
// the panels report to. Outside the extension's own tests the panels report to
// NO_OBSERVER, so nothing is kept; under test, DetailsObservations keeps what
// the tests read back. Holds no credentials, tokens or client.
import type { HostMessage, PageMessage } from './protocol';
import type { LinkOpener } from './linkOpener';

export type RenderedReport = Extract<PageMessage, { type: 'rendered' }>;

/** What integration tests observe and steer. */
export interface DetailsTestHook {
  /** The HTML most recently given to a details webview. */
  readonly lastHtml: string | undefined;
  /** The message most recently posted to a details page. */
  readonly lastPosted: HostMessage | undefined;
  /** The page's most recent read-back of what it rendered. */
  readonly lastRendered: RenderedReport | undefined;
  /** Resolves with the next (or current, when `predicate` already holds) rendered report. */
  waitForRendered(predicate: (report: RenderedReport) => boolean, timeoutMs?: number): Promise<RenderedReport>;
  /** Titles of the open details panels. */
  panelTitles(): string[];
  /** Handles `message` as if the most recently shown panel's page had sent it; resolves when handled. */
  simulatePageMessage(message: unknown): Promise<void>;
  /** Replaces the opener until disposed. */
  useLinkOpener(opener: LinkOpener): { dispose(): void };
  /** Times any opener's `open` was called (unsafe links must never get there). */
  readonly openCalls: number;
  /** Times a link was refused for not being http(s). */
  readonly refusedLinks: number;
  /** Notification messages and progress titles the panels showed, oldest first. */
  notifications(): string[];
}

/** What a panel reports as it works: only the test hook listens. */
export interface DetailsObserver {
  didSetHtml(html: string): void;
  didPost(message: HostMessage): void;
  didRender(report: RenderedReport): void;
  didOpen(): void;
  didRefuse(): void;
  /** A notification or progress title a panel showed, as shown. */
  didNotify(message: string): void;
}

/** Outside tests: nothing is recorded (no HTML or notifications piling up in memory). */
export const NO_OBSERVER: DetailsObserver = {
  didSetHtml: () => undefined,
  didPost: () => undefined,
  didRender: () => undefined,
  didOpen: () => undefined,
  didRefuse: () => undefined,
  didNotify: () => undefined,
};

/** What tests read back: only what the page was given and did, never credentials. */
export class DetailsObservations implements DetailsObserver {
  lastHtml: string | undefined;
  lastPosted: HostMessage | undefined;
  lastRendered: RenderedReport | undefined;
  openCalls = 0;
  refusedLinks = 0;
  readonly notifications: string[] = [];
  private readonly waiters = new Set<(report: RenderedReport) => void>();

  didSetHtml(html: string): void {
    this.lastHtml = html;
  }

  didPost(message: HostMessage): void {
    this.lastPosted = message;
  }

  didRender(report: RenderedReport): void {
    this.lastRendered = report;
    for (const waiter of [...this.waiters]) waiter(report);
  }

  didOpen(): void {
    this.openCalls++;
  }

  didRefuse(): void {
    this.refusedLinks++;
  }

  didNotify(message: string): void {
    this.notifications.push(message);
  }

  waitForRendered(predicate: (report: RenderedReport) => boolean, timeoutMs = 10_000): Promise<RenderedReport> {
    if (this.lastRendered && predicate(this.lastRendered)) return Promise.resolve(this.lastRendered);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`the details page did not render as expected within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (report: RenderedReport): void => {
        if (!predicate(report)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(report);
      };
      this.waiters.add(waiter);
    });
  }
}

/** The panels as the hook sees them (an interface, so this file needs nothing of the panels' code). */
export interface ObservedPanels {
  titles(): string[];
  /** Hands `message` to the current panel as if its page had sent it; rejects when no panel is open. */
  receive(message: unknown): Promise<void>;
  useLinkOpener(opener: LinkOpener): { dispose(): void };
}

export function detailsTestHook(observed: DetailsObservations, panels: ObservedPanels): DetailsTestHook {
  return {
    get lastHtml() {
      return observed.lastHtml;
    },
    get lastPosted() {
      return observed.lastPosted;
    },
    get lastRendered() {
      return observed.lastRendered;
    },
    get openCalls() {
      return observed.openCalls;
    },
    get refusedLinks() {
      return observed.refusedLinks;
    },
    notifications: () => [...observed.notifications],
    waitForRendered: (predicate, timeoutMs) => observed.waitForRendered(predicate, timeoutMs),
    panelTitles: () => panels.titles(),
    simulatePageMessage: (message) => panels.receive(message),
    useLinkOpener: (opener) => panels.useLinkOpener(opener),
  };
}
