// Our two webview pages (the event details, the board), observed from the
// test side. VS Code gives the product and these tests the same `vscode` API
// object (see user.ts), so wrapping `vscode.window.createWebviewPanel` here
// wraps what the product calls: this module keeps each panel the product
// creates, the HTML it sets, the messages it posts and the listeners it
// registers for the page's messages (so a test can send a message as the page
// would). To read what a page rendered, it adds to the HTML the product sets
// a script of the test's own (test/support/pages/readBack.ts) carrying the
// page's nonce, which reads the DOM after each render and posts it under its
// own type; those messages come here, never to the product's listeners.
//
// Installed once per extension host, before mocha runs (test/integration/index.ts).
import * as vscode from 'vscode';
import type { HostMessage as BoardHostMessage } from '../../../src/extension/board/protocol';
import { AXIS_HEIGHT, LANE_HEIGHT } from '../../../src/extension/board/page/timeline';
import type { HostMessage as DetailsHostMessage } from '../../../src/extension/details/protocol';
import { WEBVIEWS } from '../../../src/extension/workbench/constants';
import {
  isReadBackMessage,
  READ_BACK_TYPE,
  readBack,
  WALK_TYPE,
  type BoardReport,
  type DetailsReport,
  type PageKind,
  type ReadBackOptions,
} from '../../support/pages/readBack';

export type { BoardReport, DetailsReport } from '../../support/pages/readBack';

const MAX_POSTED = 1000;

interface Page {
  readonly panel: vscode.WebviewPanel;
  open: boolean;
  /** When it last got a page or content to show: the most recent one is the one a message goes to. */
  touched: number;
  /** The product's listeners for this page's messages. */
  readonly listeners: Set<(message: unknown) => void>;
  /** Posts to the page past the record of what the host posted. */
  post?: (message: unknown) => Thenable<boolean>;
}

interface KindState<H, R> {
  readonly pages: Page[];
  lastHtml: string | undefined;
  readonly posted: H[];
  lastRendered: R | undefined;
  readonly waiters: Set<(report: R) => void>;
}

interface Installed {
  readonly details: KindState<DetailsHostMessage, DetailsReport>;
  readonly board: KindState<BoardHostMessage, BoardReport>;
  clock: number;
}

let installed: Installed | undefined;

const VIEW_TYPES: Readonly<Record<string, PageKind>> = { [WEBVIEWS.details]: 'details', [WEBVIEWS.board]: 'board' };

/** The product's HTML with the read-back script before the page's own, under the page's nonce. */
function withReadBack(html: string, kind: PageKind): string {
  const at = html.search(/<script nonce="/);
  const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1];
  if (at < 0 || nonce === undefined) return html;
  const options: ReadBackOptions = {
    page: kind,
    type: READ_BACK_TYPE,
    walkType: WALK_TYPE,
    laneHeight: LANE_HEIGHT,
    axisHeight: AXIS_HEIGHT,
  };
  const script = `<script nonce="${nonce}">(${readBack.toString()})(${JSON.stringify(options)});</script>\n`;
  return html.slice(0, at) + script + html.slice(at);
}

function accessor(target: object, name: string): PropertyDescriptor {
  for (let o: object | null = target; o; o = Object.getPrototypeOf(o) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(o, name);
    if (descriptor) return descriptor;
  }
  throw new Error(`webview has no ${name}`);
}

function watch(state: Installed, kind: PageKind, panel: vscode.WebviewPanel): void {
  const kindState = state[kind] as KindState<unknown, unknown>;
  const page: Page = { panel, open: true, touched: ++state.clock, listeners: new Set() };
  kindState.pages.push(page);
  panel.onDidDispose(() => {
    page.open = false;
  });
  const webview = panel.webview;
  const html = accessor(webview, 'html');
  Object.defineProperty(webview, 'html', {
    configurable: true,
    get: () => html.get?.call(webview) as string,
    set: (value: string) => {
      kindState.lastHtml = value;
      page.touched = ++state.clock;
      html.set?.call(webview, withReadBack(value, kind));
    },
  });
  const realPost = webview.postMessage.bind(webview);
  page.post = realPost;
  Object.defineProperty(webview, 'postMessage', {
    configurable: true,
    value: (message: unknown): Thenable<boolean> => {
      kindState.posted.push(message);
      if (kindState.posted.length > MAX_POSTED) kindState.posted.shift();
      if ((message as { type?: unknown }).type === 'show') page.touched = ++state.clock;
      return realPost(message);
    },
  });
  const realEvent = webview.onDidReceiveMessage;
  realEvent((message: unknown) => {
    if (!isReadBackMessage(message) || message.page !== kind) return;
    kindState.lastRendered = message.report;
    for (const waiter of [...kindState.waiters]) waiter(message.report);
  });
  Object.defineProperty(webview, 'onDidReceiveMessage', {
    configurable: true,
    value: (listener: (message: unknown) => unknown, thisArgs?: unknown, disposables?: vscode.Disposable[]): vscode.Disposable => {
      const bound = (message: unknown): void => {
        listener.call(thisArgs, message);
      };
      page.listeners.add(bound);
      const real = realEvent((message: unknown) => {
        if (!isReadBackMessage(message)) bound(message);
      });
      const disposable = new vscode.Disposable(() => {
        page.listeners.delete(bound);
        real.dispose();
      });
      disposables?.push(disposable);
      return disposable;
    },
  });
}

/** Wraps the panel factory and the serializers' revival so every details and board panel is watched. Idempotent. */
export function installPages(): void {
  if (installed) return;
  const fresh = <H, R>(): KindState<H, R> => ({ pages: [], lastHtml: undefined, posted: [], lastRendered: undefined, waiters: new Set() });
  const state: Installed = { details: fresh(), board: fresh(), clock: 0 };
  installed = state;
  const window = vscode.window as unknown as Record<string, unknown>;
  const realCreate = (window['createWebviewPanel'] as typeof vscode.window.createWebviewPanel).bind(vscode.window);
  window['createWebviewPanel'] = (viewType: string, ...rest: unknown[]): vscode.WebviewPanel => {
    const panel = (realCreate as (...args: unknown[]) => vscode.WebviewPanel)(viewType, ...rest);
    const kind = VIEW_TYPES[viewType];
    if (kind) watch(state, kind, panel);
    return panel;
  };
  const realRegister = (window['registerWebviewPanelSerializer'] as typeof vscode.window.registerWebviewPanelSerializer).bind(
    vscode.window,
  );
  window['registerWebviewPanelSerializer'] = (viewType: string, serializer: vscode.WebviewPanelSerializer): vscode.Disposable => {
    const kind = VIEW_TYPES[viewType];
    if (!kind) return realRegister(viewType, serializer);
    return realRegister(viewType, {
      deserializeWebviewPanel: (panel, saved) => {
        watch(state, kind, panel);
        return serializer.deserializeWebviewPanel(panel, saved);
      },
    });
  };
}

function current(): Installed {
  if (!installed) throw new Error('the pages are not watched (test/integration/index.ts installs support/pages.ts before mocha runs)');
  return installed;
}

/** Resolves after `condition` holds (checked every 20 ms), or fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function pagesOf<H, R>(kind: PageKind, name: string) {
  const kindState = (): KindState<H, R> => current()[kind] as unknown as KindState<H, R>;
  const open = (): Page[] => kindState().pages.filter((p) => p.open);
  return {
    /** The HTML the product most recently gave such a page (as the product wrote it, without the read-back). */
    get lastHtml(): string | undefined {
      return kindState().lastHtml;
    },
    /** The message the host most recently posted to such a page. */
    get lastPosted(): H | undefined {
      return kindState().posted.at(-1);
    },
    /** Every message posted to such pages, oldest first. */
    posted(): readonly H[] {
      return [...kindState().posted];
    },
    /** What such a page most recently showed, read from its DOM. */
    get lastRendered(): R | undefined {
      return kindState().lastRendered;
    },
    /** The open panels' titles, oldest first. */
    panelTitles(): string[] {
      return open().map((p) => p.panel.title);
    },
    /** The open panel that is active, or else the one most recently given something to show. */
    panel(): vscode.WebviewPanel | undefined {
      const pages = open();
      return (pages.find((p) => p.panel.active) ?? pages.sort((a, b) => b.touched - a.touched)[0])?.panel;
    },
    /** Sends `message` to the product as that panel's page would (validated and handled by the product as any page message). */
    send(message: unknown): void {
      const pages = open();
      const target = pages.find((p) => p.panel.active) ?? pages.sort((a, b) => b.touched - a.touched)[0];
      if (!target) throw new Error(`no ${name} is open`);
      for (const listener of [...target.listeners]) listener(message);
    },
    /**
     * Presses `keys` in that panel's page (the board's table, from its first drawn row), as the read-back
     * script dispatches them, and resolves with its read of the page after the last.
     */
    async walk(keys: readonly string[], timeoutMs = 15_000): Promise<R> {
      const pages = open();
      const target = pages.find((p) => p.panel.active) ?? pages.sort((a, b) => b.touched - a.touched)[0];
      if (!target?.post) throw new Error(`no ${name} is open`);
      const state = kindState();
      const walked = new Promise<R>((resolve, reject) => {
        const timer = setTimeout(() => {
          state.waiters.delete(waiter);
          reject(new Error(`the ${name} did not walk ${keys.join(', ')} within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (report: R): void => {
          if ((report as { reason?: unknown }).reason !== 'keys') return;
          clearTimeout(timer);
          state.waiters.delete(waiter);
          resolve(report);
        };
        state.waiters.add(waiter);
      });
      await target.post({ type: WALK_TYPE, keys });
      return walked;
    },
    /** Resolves with the next (or current, when `predicate` already holds) read of the page's DOM. */
    waitForRendered(predicate: (report: R) => boolean, timeoutMs = 15_000): Promise<R> {
      const state = kindState();
      const last = state.lastRendered;
      if (last !== undefined && predicate(last)) return Promise.resolve(last);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          state.waiters.delete(waiter);
          reject(new Error(`the ${name} did not render as expected within ${timeoutMs} ms; last: ${JSON.stringify(state.lastRendered)}`));
        }, timeoutMs);
        const waiter = (report: R): void => {
          if (!predicate(report)) return;
          clearTimeout(timer);
          state.waiters.delete(waiter);
          resolve(report);
        };
        state.waiters.add(waiter);
      });
    },
  };
}

/** The details panels and the board, as the tests see them from outside. */
export const pages = {
  details: pagesOf<DetailsHostMessage, DetailsReport>('details', 'details page'),
  board: pagesOf<BoardHostMessage, BoardReport>('board', 'board'),
};
