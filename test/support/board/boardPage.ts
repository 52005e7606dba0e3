// The board's page in Debian's Chromium, as the webview renders it: the
// host's own HTML shell (its CSP and nonce), the bundled script and styles
// from media/, the --vscode-* variables and body class of a theme, and a
// stand-in for the webview's acquireVsCodeApi that records what the page
// posts, and the test's read-back script (test/support/pages/readBack.ts),
// which reads what the page rendered from its DOM and times each render from
// outside: from the host's message or the user's input to the changed DOM,
// laid out. The axe-core audit, the bench and the screenshots of the page
// alone drive it.
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { renderShell } from '../../../src/extension/workbench/webviewShell';
import { boardPageStrings } from '../../../src/extension/board/boardStrings';
import type { BoardView, HostMessage, PageMessage } from '../../../src/extension/board/protocol';
import { AXIS_HEIGHT, LANE_HEIGHT } from '../../../src/extension/board/page/timeline';
import { plainLocalize, type Localize } from '../../../src/core/common/localize';
import type { BoardRow } from '../../../src/core/domain/board/boardRows';
import { isReadBackMessage, READ_BACK_TYPE, readBack, WALK_TYPE, type BoardReport, type ReadBackMessage } from '../pages/readBack';
import { WEBVIEW_THEMES, type ThemeName } from './themes';

export type { BoardReport } from '../pages/readBack';

const root = join(__dirname, '..', '..', '..', '..');
const ORIGIN = 'https://board.webview.test';
const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
};

export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The bundle the page runs (built by esbuild.mjs); the audit needs it built. */
export const boardScript = join(root, 'media', 'board', 'board.js');

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
}

export interface BoardPage {
  readonly page: Page;
  /** Posts a board as the host would, its page strings localized by `t`, and resolves with the read-back of the render. */
  show(board: Omit<BoardView, 'locale' | 'nowMs'> & Partial<Pick<BoardView, 'locale' | 'nowMs'>>, t?: Localize): Promise<BoardReport>;
  /** Resolves with the next read-back of a render started by `reason`. */
  nextRendered(reason: BoardReport['reason']): Promise<BoardReport>;
  /** Everything the page itself posted so far, oldest first. */
  posted(): Promise<PageMessage[]>;
  setTheme(theme: ThemeName): Promise<void>;
  close(): Promise<void>;
}

/** Opens the page in a new tab of `browser`, in `theme`, and waits for its "ready". */
export async function openBoardPage(
  browser: Browser,
  theme: ThemeName,
  viewport: { width: number; height: number } = { width: 1200, height: 800 },
): Promise<BoardPage> {
  if (!existsSync(boardScript)) throw new Error(`${boardScript} is missing: run "npm run build" first`);
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
  const html = renderShell({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/media/board/board.js`,
    styleUri: `${ORIGIN}/media/board/board.css`,
    codiconsUri: `${ORIGIN}/media/codicons/codicon.css`,
    title: 'Onboarding Board',
    loading: 'Loading the board…',
    lang: 'en',
  });
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/index.html') {
      await route.fulfill({ status: 200, contentType: 'text/html', body: html });
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(join(root, 'media')) || !existsSync(file)) {
      await route.fulfill({ status: 404, body: '' });
      return;
    }
    await route.fulfill({ status: 200, contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
  });
  // The webview's API, as VS Code injects it before the page's scripts run.
  await page.addInitScript(() => {
    const w = window as unknown as { __posted: unknown[]; __state: unknown; acquireVsCodeApi: () => unknown };
    w.__posted = [];
    w.__state = undefined;
    w.acquireVsCodeApi = () => ({
      postMessage: (message: unknown) => {
        w.__posted.push(message);
      },
      setState: (state: unknown) => {
        w.__state = state;
      },
      getState: () => w.__state,
    });
  });
  // The test's read-back, after the stand-in: it shares the stand-in's API with the page.
  await page.addInitScript(readBack, {
    page: 'board' as const,
    type: READ_BACK_TYPE,
    walkType: WALK_TYPE,
    laneHeight: LANE_HEIGHT,
    axisHeight: AXIS_HEIGHT,
  });
  const everything = async (): Promise<(PageMessage | ReadBackMessage)[]> =>
    page.evaluate(() => (window as unknown as { __posted: (PageMessage | ReadBackMessage)[] }).__posted);
  const posted = async (): Promise<PageMessage[]> => (await everything()).filter((m): m is PageMessage => !isReadBackMessage(m));
  const reports = async (): Promise<BoardReport[]> =>
    (await everything()).flatMap((m) => (isReadBackMessage(m) && m.page === 'board' ? [m.report as BoardReport] : []));
  const waitFor = async <M, T>(read: () => Promise<M[]>, pick: (messages: M[]) => T | undefined, after: number): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = pick((await read()).slice(after));
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('the board page did not answer within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const setTheme = async (name: ThemeName): Promise<void> => {
    const theme = WEBVIEW_THEMES[name];
    await page.evaluate((t) => {
      const style = document.documentElement.style;
      for (let i = style.length - 1; i >= 0; i--) {
        const property = style.item(i);
        if (property.startsWith('--vscode-')) style.removeProperty(property);
      }
      for (const [property, value] of Object.entries(t.variables)) style.setProperty(property, value);
      document.body.className = t.bodyClass;
    }, theme);
  };
  await page.goto(`${ORIGIN}/index.html`);
  await waitFor(posted, (messages) => messages.find((m) => m.type === 'ready'), 0);
  await setTheme(theme);
  const nextRendered = async (reason: BoardReport['reason']): Promise<BoardReport> => {
    const after = (await reports()).length;
    return waitFor(reports, (found) => found.find((r) => r.reason === reason), after);
  };
  return {
    page,
    show: async (board, t = plainLocalize) => {
      const after = (await reports()).length;
      const message: HostMessage = {
        type: 'show',
        board: { locale: 'en', nowMs: Date.UTC(2025, 0, 16, 9, 0, 0), ...board },
        strings: boardPageStrings(t),
      };
      // As one string: Playwright walks an object argument value by value, slow for a large board.
      await page.evaluate((json) => {
        window.postMessage(JSON.parse(json), '*');
      }, JSON.stringify(message));
      return waitFor(reports, (found) => found.find((r) => r.reason === 'show'), after);
    },
    nextRendered,
    posted,
    setTheme,
    close: () => context.close(),
  };
}

/** A board of `rows` as the host would post it for the workspace set. */
export function boardOf(rows: readonly BoardRow[], overrides: Partial<BoardView> = {}): Omit<BoardView, 'locale' | 'nowMs'> {
  return {
    title: 'Board: Serial Numbers in line3.yaml',
    set: { kind: 'workspace' },
    session: 'signed-in',
    rows,
    held: 0,
    beyond: 0,
    usual: null,
    ...overrides,
  };
}
