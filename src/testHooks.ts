// What the integration tests build from, handed over beside the API in
// ExtensionMode.Test only: the objects the features already are, no member
// written for a test. The tree, the URI handler and the notifications are
// observed from the test side (test/integration/support/).
import { appendFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import type { IDisposable } from './core/common/lifecycle';
import type { SessionState } from './core/domain/session/sessionState';
import type { EventsCache } from './core/eventsCache/eventsCache';
import type { AgentTools } from './extension/agentTools/registerAgentTools';
import type { Board } from './extension/board/registerBoard';
import type { ApiSession } from './extension/workbench/contracts/apiSession';
import type { Watches } from './extension/watch/registerWatch';

type Context = Pick<vscode.ExtensionContext, 'globalState' | 'workspaceState' | 'secrets' | 'logUri' | 'subscriptions' | 'extensionMode'>;

/** The features as extension.ts wired them. */
export interface TestHandles {
  readonly context: Context;
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly agentTools: AgentTools;
  readonly board: Board;
  readonly watch: Watches;
}

/** The handles in ExtensionMode.Test, else undefined; a second window of the local harness records itself. */
export function testHandles(handles: TestHandles): TestHandles | undefined {
  recordWindow(handles);
  return handles.context.extensionMode === vscode.ExtensionMode.Test ? handles : undefined;
}

/** The folder where each window records itself (set by the local harness, scripts/vscode/code-stand-in.mjs). */
export const WINDOW_RECORDS_ENV = 'OE_TEST_WINDOW_RECORDS';
/** Lines a window records at most: a test reads a few dozen. */
const MAX_WINDOW_RECORD_LINES = 1000;

/** One line of a window's record (window-<pid>.jsonl). */
export type WindowRecord =
  | { readonly kind: 'session'; readonly state: SessionState['kind'] }
  | { readonly kind: 'watching'; readonly serialNumbers: readonly string[] }
  | { readonly kind: 'ended'; readonly serialNumber: string; readonly tellUser: boolean }
  | { readonly kind: 'notified'; readonly notification: ShownNotification };

/** A notification or modal question this window showed, as the user read it. */
export interface ShownNotification {
  /** 'confirm' for a modal question, whose message is followed by its detail on the next line. */
  readonly kind: 'info' | 'warning' | 'error' | 'confirm';
  readonly message: string;
}

/**
 * A second window of the local harness runs no tests, so each window appends its sign-in state, watches and
 * notifications to its own file in the folder the harness names. Never in production mode.
 */
function recordWindow(sources: TestHandles): void {
  const folder = process.env[WINDOW_RECORDS_ENV];
  if (sources.context.extensionMode === vscode.ExtensionMode.Production || !folder || !isAbsolute(folder)) return;
  const file = join(folder, `window-${process.pid}.jsonl`);
  let lines = 0;
  const append = (record: WindowRecord): void => {
    if (++lines > MAX_WINDOW_RECORD_LINES) return;
    try {
      appendFileSync(file, `${JSON.stringify(record)}\n`);
    } catch {
      // The harness removed its folder: the run is over.
    }
  };
  const { session, watch } = sources;
  const watching = (): void => {
    append({
      kind: 'watching',
      serialNumbers: watch.list
        .list()
        .filter((info) => info.status === 'watching')
        .map((info) => info.serialNumber),
    });
  };
  append({ kind: 'session', state: session.state.kind });
  watching();
  sources.context.subscriptions.push(
    session.onDidChangeState((state) => {
      append({ kind: 'session', state: state.kind });
      watching();
    }),
    watch.list.onDidChange(watching),
    watch.list.onDidEnd((ended) => {
      append({ kind: 'ended', serialNumber: ended.watch.serialNumber, tellUser: ended.tellUser });
    }),
    recordShown((notification) => {
      append({ kind: 'notified', notification });
    }),
  );
}

type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/** Wraps this extension's show…Message calls (its files share one `vscode` API object) to hand each one to `record`. */
function recordShown(record: (shown: ShownNotification) => void): IDisposable {
  const window = vscode.window as unknown as Record<string, unknown>;
  const wrapped = (['info', 'warning', 'error'] as const).map((kind) => {
    const name = kind === 'info' ? 'showInformationMessage' : kind === 'warning' ? 'showWarningMessage' : 'showErrorMessage';
    const real = window[name] as ShowMessage;
    const wrapper: ShowMessage = (message, ...rest) => {
      // MessageOptions come first when given; a MessageItem has a title.
      const first = rest[0];
      const options = typeof first === 'object' && first !== null && !('title' in first) ? (first as vscode.MessageOptions) : undefined;
      record(
        options?.modal === true
          ? { kind: 'confirm', message: options.detail === undefined ? message : `${message}\n${options.detail}` }
          : { kind, message },
      );
      return real.call(vscode.window, message, ...rest);
    };
    window[name] = wrapper;
    return { name, real, wrapper };
  });
  return {
    dispose: () => {
      // Only our own wrapper is taken away: one installed over it stays.
      for (const { name, real, wrapper } of wrapped) if (window[name] === wrapper) window[name] = real;
    },
  };
}
