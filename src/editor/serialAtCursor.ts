// Keeps the context key `onboardingEvents.serialAtCursor` true while the cursor
// stands on a serial number, so the editor context menu offers the look-up.
// Cheap by design: debounced, looks only at the cursor's line, and sets the
// key only when its value changes.
import * as vscode from 'vscode';
import { MAX_SERIAL_NUMBER_LENGTH } from '../core/serialNumber';
import type { SerialMatch } from '../domain/serialNumbers/serialMatcher';
import type { SerialSettings } from '../workbench/serialSettings';

export const SERIAL_AT_CURSOR_CONTEXT = 'onboardingEvents.serialAtCursor';
const DEBOUNCE_MS = 150;
const LONG_LINE = 10_000;

/** The serial number at the editor's (primary) cursor, if any. */
export function serialAtCursor(editor: vscode.TextEditor, settings: SerialSettings): SerialMatch | undefined {
  const position = editor.selection.active;
  const line = editor.document.lineAt(position.line).text;
  if (line.length <= LONG_LINE) return settings.value.matcher.matchAt(line, position.character);
  // A minified file's one line can be megabytes: look only around the cursor
  // (a serial number is at most MAX_SERIAL_NUMBER_LENGTH long).
  const from = Math.max(0, position.character - 2 * MAX_SERIAL_NUMBER_LENGTH);
  const window = line.slice(from, position.character + 2 * MAX_SERIAL_NUMBER_LENGTH);
  const match = settings.value.matcher.matchAt(window, position.character - from);
  return match === undefined ? undefined : { serialNumber: match.serialNumber, start: match.start + from, end: match.end + from };
}

export class SerialAtCursorContext implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private value = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly settings: SerialSettings) {
    this.subscriptions = [
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor === vscode.window.activeTextEditor) this.schedule();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => {
        this.schedule();
      }),
      settings.onDidChange(() => {
        this.schedule();
      }),
    ];
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, DEBOUNCE_MS);
  }

  private update(): void {
    const editor = vscode.window.activeTextEditor;
    const next = editor !== undefined && serialAtCursor(editor, this.settings) !== undefined;
    if (next !== this.value) {
      this.value = next;
      void vscode.commands.executeCommand('setContext', SERIAL_AT_CURSOR_CONTEXT, next);
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
