// What a test reads of our webview pages: their DOM, read by a script of the
// test's own that runs in the page beside the product's script. The product's
// pages report nothing about themselves; this script watches the page's #root,
// and after each change (with a layout it forces itself) posts what the page
// now shows, under a type no page of ours sends. In the extension host,
// test/integration/support/pages.ts puts it into the webview's HTML with the
// page's own nonce; in Chromium alone, test/support/board/boardPage.ts adds it
// before the page loads.

/** The type of the read-back's messages: the test side takes them, the product never sees them. */
export const READ_BACK_TYPE = 'onboarding-events-test:rendered';
/** What the test side posts to the read-back: keys pressed on the board's table, from its first drawn row. */
export const WALK_TYPE = 'onboarding-events-test:walk';

/** The event details page as the user sees it. */
export interface DetailsReport {
  /** The heading: the event's type. */
  readonly title: string;
  readonly message: string;
  /** <img> and <a> elements in the page: server text must never become either. */
  readonly images: number;
  readonly links: number;
}

/** The board page as the user sees it. */
export interface BoardReport {
  /** The board's rows: the sum of the state filter's counts. */
  readonly rows: number;
  /** Rows the filter lets through: the table's aria-rowcount, less its header row. */
  readonly shown: number;
  /** Rows in the DOM: the virtual table draws those in view and a screenful either side. */
  readonly drawn: number;
  /** The serial numbers of the rows drawn, in the order shown (at most 50). */
  readonly firstShown: readonly string[];
  readonly summary: string;
  /** The timeline's lanes in view: the only ones the page draws. */
  readonly lanesDrawn: number;
  /** ms from the host's message or the user's input to the changed DOM, laid out (timed by this script, not the page). */
  readonly renderMs: number;
  /** What started the render: the host's "show", a filter, a sort, or keys the test pressed (WALK_TYPE). */
  readonly reason: 'show' | 'filter' | 'sort' | 'keys';
  /** The focused element's text and the aria-rowindex of its row ('' outside a row). */
  readonly focused: { readonly text: string; readonly rowIndex: string };
  /** The notices under the heading (signed out, not loaded, past the limit), as read. */
  readonly notices: string;
  /** The progress and time-to-go cells of the rows shown that have progress (at most 50), with their titles. */
  readonly progress: readonly {
    readonly serialNumber: string;
    readonly text: string;
    readonly title: string;
    readonly toGo: string;
    readonly toGoTitle: string;
  }[];
  /** The note on the faint usual-step bands behind the lanes, and its title (how they were learned); '' without. */
  readonly usualNote: string;
  readonly usualNoteTitle: string;
  /** The board's heading. */
  readonly heading: string;
  /** The Stalled filter button's count, '' when hidden. */
  readonly stalledCount: string;
  /** The Abandoned filter button's count, '' when hidden. */
  readonly abandonedCount: string;
}

export type PageKind = 'details' | 'board';

export interface ReadBackOptions {
  readonly page: PageKind;
  readonly type: string;
  /** WALK_TYPE: passed in, as the script uses nothing from outside its own body. */
  readonly walkType: string;
  /** The timeline's geometry (src/extension/board/page/timeline.ts), to count the lanes in view. */
  readonly laneHeight: number;
  readonly axisHeight: number;
}

export interface ReadBackMessage {
  readonly type: typeof READ_BACK_TYPE;
  readonly page: PageKind;
  readonly report: DetailsReport | BoardReport;
}

export function isReadBackMessage(message: unknown): message is ReadBackMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === READ_BACK_TYPE;
}

/**
 * Runs inside the page, before the page's own script: it is sent there as
 * source text, so it uses nothing from outside its own body.
 */
export function readBack(options: ReadBackOptions): void {
  const WALK = options.walkType;
  interface Api {
    postMessage(message: unknown): void;
  }
  const w = window as unknown as { acquireVsCodeApi: () => Api };
  const acquire = w.acquireVsCodeApi;
  let api: Api | undefined;
  // VS Code hands its API out once per page: the page's own call gets the one this script shares.
  w.acquireVsCodeApi = () => (api ??= acquire());
  let pending: { reason: BoardReport['reason']; started: number } | undefined;
  const begin = (reason: BoardReport['reason']): void => {
    pending = { reason, started: performance.now() };
  };
  // Registered before the page's own listeners: the clock starts when the message or the input arrives.
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    if (typeof data === 'object' && data !== null && data.type === 'show') begin('show');
    if (typeof data === 'object' && data !== null && data.type === WALK) walk((data as { keys?: unknown }).keys);
  });
  document.addEventListener(
    'input',
    (event) => {
      if ((event.target as Element | null)?.id === 'filter') begin('filter');
    },
    true,
  );
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element | null;
      if (target?.closest('.state-toggle')) begin('filter');
      else if (target?.closest('[role=columnheader] button')) begin('sort');
    },
    true,
  );
  const text = (selector: string): string => document.querySelector(selector)?.textContent ?? '';
  // Keys as a keyboard sends them to the focused element: the extension host cannot press keys in a webview.
  const walk = (keys: unknown): void => {
    if (!Array.isArray(keys)) return;
    document.querySelector<HTMLElement>('.grid .body [role=row] button')?.focus();
    for (const key of keys)
      if (typeof key === 'string')
        (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    begin('keys');
    observed();
  };
  const details = (): DetailsReport | undefined =>
    document.getElementById('event-type')
      ? {
          title: text('#event-type'),
          message: text('#event-message'),
          images: document.images.length,
          links: document.querySelectorAll('a').length,
        }
      : undefined;
  const board = (renderMs: number, reason: BoardReport['reason']): BoardReport => {
    const shown = Array.from(document.querySelectorAll<HTMLElement>('.grid .body > [role=row]'));
    const rowCount = Number(document.querySelector('.grid')?.getAttribute('aria-rowcount') ?? '1') - 1;
    const rows = Array.from(
      document.querySelectorAll('.state-filter .state-toggle:not(.stalled-toggle):not(.abandoned-toggle) .count'),
    ).reduce((sum, count) => sum + Number(count.textContent.replace(/\D/g, '')), 0);
    const canvas = document.querySelector<HTMLCanvasElement>('.lanes canvas');
    const lanes = document.querySelector<HTMLElement>('.lanes');
    let lanesDrawn = 0;
    if (canvas && lanes) {
      const height = canvas.height / (window.devicePixelRatio || 1);
      const first = Math.max(0, Math.floor(lanes.scrollTop / options.laneHeight));
      lanesDrawn = Math.max(0, Math.min(rowCount - first, Math.ceil((height - options.axisHeight) / options.laneHeight) + 1));
    }
    return {
      rows,
      shown: rowCount,
      drawn: shown.length,
      firstShown: shown.slice(0, 50).map((row) => row.querySelector('.col-serialNumber button')?.textContent ?? ''),
      summary: text('#summary'),
      lanesDrawn,
      renderMs,
      reason,
      progress: shown
        .filter((row) => (row.querySelector('.col-progress')?.textContent ?? '') !== '')
        .slice(0, 50)
        .map((row) => ({
          serialNumber: row.querySelector('.col-serialNumber button')?.textContent ?? '',
          text: row.querySelector('.col-progress')?.textContent ?? '',
          title: row.querySelector<HTMLElement>('.col-progress')?.title ?? '',
          toGo: row.querySelector('.col-toGo')?.textContent ?? '',
          toGoTitle: row.querySelector<HTMLElement>('.col-toGo')?.title ?? '',
        })),
      usualNote: document.querySelector<HTMLElement>('.usual-note:not([hidden])')?.textContent ?? '',
      usualNoteTitle: document.querySelector<HTMLElement>('.usual-note:not([hidden])')?.title ?? '',
      heading: text('.board-header h1'),
      focused: {
        text: document.activeElement?.closest('[role=row]') ? document.activeElement.textContent : '',
        rowIndex: document.activeElement?.closest('[role=row]')?.getAttribute('aria-rowindex') ?? '',
      },
      notices: (document.querySelector<HTMLElement>('.notices')?.innerText ?? '').trim(),
      stalledCount: document.querySelector<HTMLElement>('.stalled-toggle:not([hidden]) .count')?.textContent ?? '',
      abandonedCount: document.querySelector<HTMLElement>('.abandoned-toggle:not([hidden]) .count')?.textContent ?? '',
    };
  };
  const observed = (): void => {
    // After layout: the time a user waits includes it (forced here, by the test's script).
    document.body.getBoundingClientRect();
    let report: DetailsReport | BoardReport | undefined;
    if (options.page === 'details') report = details();
    else if (pending) report = board(performance.now() - pending.started, pending.reason);
    pending = undefined;
    if (report) (api ??= acquire()).postMessage({ type: options.type, page: options.page, report });
  };
  const watch = (): void => {
    const root = document.getElementById('root');
    if (root) new MutationObserver(observed).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  if (document.getElementById('root')) watch();
  else document.addEventListener('DOMContentLoaded', watch);
}
