// The user, played from the test side. A test cannot click a modal dialog,
// pick from a quick pick or choose a file in a save dialog of the real
// workbench, so this module stands in VS Code's own API for those questions,
// the way vscode-pull-request-github and vscode-python-environments stub
// `vscode.window` in their extension-host tests. It works because VS Code
// gives every file inside one extension's folder the same `vscode` API object:
// the product (dist/extension.js) and these tests (out/test/…) share it, so
// replacing `vscode.window.showWarningMessage` here is what the product calls.
// The product itself has no test mode: it asks its questions, and this
// module answers them as a user would, and records what was shown.
//
// Installed once per extension host, before mocha runs (test/integration/index.ts).
import * as vscode from 'vscode';

export type ShownKind = 'info' | 'warning' | 'error';

/** A notification or modal question as the user saw it, and what the test's user answered. */
export interface Shown {
  readonly kind: ShownKind;
  readonly message: string;
  readonly modal: boolean;
  /** The modal's detail text (undefined for notifications). */
  readonly detail: string | undefined;
  /** The buttons offered, by title. */
  readonly items: readonly string[];
  /** The button chosen (modals only); undefined when dismissed. */
  answer?: string | undefined;
}

/** Chooses a modal's button by its title; undefined dismisses the modal. */
export type ModalAnswerer = (shown: Shown) => string | undefined | Promise<string | undefined>;

/** Answers one quick pick: the chosen item(s) among `items`, or undefined to dismiss it. */
export type QuickPickAnswerer = (items: readonly vscode.QuickPickItem[], options: vscode.QuickPickOptions | undefined) => unknown;

const MAX_SHOWN = 1000;

type Item = string | vscode.MessageItem;
type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<Item | undefined>;

interface Installed {
  readonly shown: Shown[];
  readonly modalAnswerers: ModalAnswerer[];
  readonly quickPicks: QuickPickAnswerer[];
  readonly inputBoxes: (string | undefined)[];
  readonly saveDialogs: (vscode.Uri | undefined)[];
  readonly opened: vscode.Uri[];
  /** Titles of progress notifications, oldest first. */
  readonly progress: string[];
  readonly statusBarItems: vscode.StatusBarItem[];
  readonly windowStateListeners: Set<(state: vscode.WindowState) => unknown>;
  focused: boolean | undefined;
}

let installed: Installed | undefined;

/** Agrees to every modal question: the first button, as a user who reads it and says yes. */
const agree: ModalAnswerer = (shown) => shown.items[0];

function titleOf(item: Item): string {
  return typeof item === 'string' ? item : item.title;
}

/**
 * Replaces the parts of `vscode.window` and `vscode.env` a user answers with
 * the test's user; everything else stays VS Code's. Idempotent.
 */
export function installUser(): void {
  if (installed) return;
  const state: Installed = {
    shown: [],
    modalAnswerers: [],
    quickPicks: [],
    inputBoxes: [],
    saveDialogs: [],
    opened: [],
    progress: [],
    statusBarItems: [],
    windowStateListeners: new Set(),
    focused: undefined,
  };
  installed = state;
  const window = vscode.window as unknown as Record<string, unknown>;
  const env = vscode.env as unknown as Record<string, unknown>;

  const message = (kind: ShownKind, real: ShowMessage): ShowMessage => {
    return (text, ...rest) => {
      const options =
        typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? (rest[0] as vscode.MessageOptions) : undefined;
      const items = (options ? rest.slice(1) : rest) as Item[];
      const modal = options?.modal === true;
      const shown: Shown = { kind, message: text, modal, detail: options?.detail, items: items.map(titleOf) };
      state.shown.push(shown);
      if (state.shown.length > MAX_SHOWN) state.shown.shift();
      if (!modal) return real(text, ...rest);
      const answerer = state.modalAnswerers.at(-1) ?? agree;
      return Promise.resolve(answerer(shown)).then((title) => {
        shown.answer = title;
        return title === undefined ? undefined : items.find((item) => titleOf(item) === title);
      });
    };
  };
  const bind = (name: string): ShowMessage => (window[name] as ShowMessage).bind(vscode.window);
  window['showInformationMessage'] = message('info', bind('showInformationMessage'));
  window['showWarningMessage'] = message('warning', bind('showWarningMessage'));
  window['showErrorMessage'] = message('error', bind('showErrorMessage'));

  const realQuickPick = (window['showQuickPick'] as (...args: unknown[]) => Thenable<unknown>).bind(vscode.window);
  window['showQuickPick'] = async (items: unknown, options?: vscode.QuickPickOptions, token?: vscode.CancellationToken) => {
    const answerer = state.quickPicks.shift();
    if (!answerer) return realQuickPick(items, options, token);
    const resolved = (await Promise.resolve(items)) as readonly (string | vscode.QuickPickItem)[];
    const asItems = resolved.map((item) => (typeof item === 'string' ? { label: item } : item));
    const chosen = answerer(asItems, options);
    // A string list gets strings back, as VS Code does.
    const back = (item: unknown): unknown =>
      typeof resolved[asItems.indexOf(item as vscode.QuickPickItem)] === 'string' ? (item as vscode.QuickPickItem).label : item;
    return Array.isArray(chosen) ? chosen.map(back) : chosen === undefined ? undefined : back(chosen);
  };

  const realInputBox = (window['showInputBox'] as (...args: unknown[]) => Thenable<string | undefined>).bind(vscode.window);
  window['showInputBox'] = (options?: vscode.InputBoxOptions, token?: vscode.CancellationToken) =>
    state.inputBoxes.length > 0 ? Promise.resolve(state.inputBoxes.shift()) : realInputBox(options, token);

  const realSaveDialog = (window['showSaveDialog'] as (...args: unknown[]) => Thenable<vscode.Uri | undefined>).bind(vscode.window);
  window['showSaveDialog'] = (options?: vscode.SaveDialogOptions) =>
    state.saveDialogs.length > 0 ? Promise.resolve(state.saveDialogs.shift()) : realSaveDialog(options);

  // A browser tab opened by a test would outlive it: links are recorded, not opened.
  env['openExternal'] = (target: vscode.Uri) => {
    state.opened.push(target);
    return Promise.resolve(true);
  };

  // A progress notification is shown as VS Code shows it; its title is recorded as the user read it.
  const realProgress = (window['withProgress'] as (...args: unknown[]) => Thenable<unknown>).bind(vscode.window);
  window['withProgress'] = (options: vscode.ProgressOptions, task: unknown) => {
    if (options.location === vscode.ProgressLocation.Notification && options.title !== undefined) {
      state.progress.push(options.title);
      if (state.progress.length > MAX_SHOWN) state.progress.shift();
    }
    return realProgress(options, task);
  };

  const realStatusBarItem = (window['createStatusBarItem'] as (...args: unknown[]) => vscode.StatusBarItem).bind(vscode.window);
  window['createStatusBarItem'] = (...args: unknown[]) => {
    const item = realStatusBarItem(...args);
    state.statusBarItems.push(item);
    return item;
  };

  // A headless run does not control the OS's focus: the test's user says whether the window is focused.
  const stateDescriptor = Object.getOwnPropertyDescriptor(vscode.window, 'state');
  const realState = (): vscode.WindowState => stateDescriptor?.get?.call(vscode.window) as vscode.WindowState;
  const windowState = (): vscode.WindowState => {
    const real = realState();
    return state.focused === undefined ? real : { ...real, focused: state.focused, active: state.focused };
  };
  Object.defineProperty(vscode.window, 'state', { configurable: true, enumerable: true, get: windowState });
  const realOnDidChange = vscode.window.onDidChangeWindowState;
  window['onDidChangeWindowState'] = (
    listener: (state: vscode.WindowState) => unknown,
    thisArgs?: unknown,
    disposables?: vscode.Disposable[],
  ) => {
    const bound = (s: vscode.WindowState): unknown => listener.call(thisArgs, s);
    state.windowStateListeners.add(bound);
    const real = realOnDidChange((s) => {
      if (state.focused === undefined) bound(s);
    });
    const disposable = new vscode.Disposable(() => {
      state.windowStateListeners.delete(bound);
      real.dispose();
    });
    disposables?.push(disposable);
    return disposable;
  };
}

function current(): Installed {
  if (!installed) throw new Error('the test user is not installed (test/integration/index.ts installs it before mocha runs)');
  return installed;
}

function pushed<T>(list: T[], value: T): vscode.Disposable {
  list.push(value);
  return new vscode.Disposable(() => {
    const at = list.lastIndexOf(value);
    if (at >= 0) list.splice(at, 1);
  });
}

/** What the test's user does and saw. */
export const user = {
  /** Notifications and modal questions shown since installation (or the last `forget`), oldest first. */
  shown(): readonly Shown[] {
    return [...current().shown];
  },
  /** Shown entries from `since` (a length of `shown()` read earlier) on. */
  shownSince(since: number): readonly Shown[] {
    return current().shown.slice(since);
  },
  /** Modal questions shown so far. */
  modals(): readonly Shown[] {
    return current().shown.filter((s) => s.modal);
  },
  /** Forgets what was shown so far. */
  forget(): void {
    current().shown.length = 0;
  },
  /** Answers modal questions with `answerer` until disposed (the most recent answerer wins); by default the user agrees (first button). */
  answerModals(answerer: ModalAnswerer): vscode.Disposable {
    return pushed(current().modalAnswerers, answerer);
  },
  /** Dismisses every modal question until disposed. */
  declineModals(): vscode.Disposable {
    return pushed(current().modalAnswerers, () => undefined);
  },
  /** Answers the next quick pick (only that one); later ones are VS Code's again. */
  pickNext(answerer: QuickPickAnswerer): vscode.Disposable {
    return pushed(current().quickPicks, answerer);
  },
  /** Answers the next quick pick with the first item whose label or description `match` matches. */
  pickNextMatching(match: RegExp): vscode.Disposable {
    return user.pickNext((items) => items.find((item) => match.test(item.label) || match.test(item.description ?? '')));
  },
  /** Types `value` into the next input box (undefined: presses Escape). */
  typeNext(value: string | undefined): vscode.Disposable {
    return pushed(current().inputBoxes, value);
  },
  /** Chooses `target` in the next save dialog (undefined: cancels it). */
  saveNextAs(target: vscode.Uri | undefined): vscode.Disposable {
    return pushed(current().saveDialogs, target);
  },
  /** Links handed to vscode.env.openExternal, oldest first (recorded, never opened). */
  opened(): readonly vscode.Uri[] {
    return [...current().opened];
  },
  /** Titles of the progress notifications shown since installation, oldest first. */
  progress(): readonly string[] {
    return [...current().progress];
  },
  /** Status bar items created since installation. */
  statusBarItems(): readonly vscode.StatusBarItem[] {
    return [...current().statusBarItems];
  },
  /** The window reads as focused (true) or not (false) until set back to undefined (the real window's state). */
  setWindowFocused(focused: boolean | undefined): void {
    const state = current();
    state.focused = focused;
    const now = vscode.window.state;
    for (const listener of [...state.windowStateListeners]) listener(now);
  },
};

/** Resolves once `probe` holds (checked every 50 ms), or fails naming `what` after `timeoutMs`: for what the product does after the user answered. */
export async function until(probe: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
