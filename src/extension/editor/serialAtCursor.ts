// Keeps the context key `onboardingEvents.serialAtCursor` true while the cursor
// stands on a serial number, so the editor context menu offers the look-up.
// Cheap by design: debounced, looks only at the cursor's line, and sets the
// key only when its value changes.
import * as vscode from 'vscode';
import { MAX_SERIAL_NUMBER_LENGTH } from '../../core/client/serialNumber';
import { Debouncer } from '../../core/common/delays';
import { Disposable } from '../../core/common/lifecycle';
import type { SerialMatch, SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import { CONTEXT_KEYS } from '../workbench/constants';
import { setContext } from '../workbench/commands';
import type { SerialSettings } from '../workbench/serialSettings';

const DEBOUNCE_MS = 150;
const LONG_LINE = 10_000;

/** The serial number at the editor's (primary) cursor, if any. */
export function serialAtCursor(editor: vscode.TextEditor, settings: SerialSettings): SerialMatch | undefined {
  return serialAtPosition(editor.document, editor.selection.active, settings.value.matcher);
}

/**
 * The serial number covering `position`, found by the matcher on the line
 * alone — never by `getWordRangeAtPosition`, which would run the pattern on
 * VS Code's backtracking RegExp engine.
 */
export function serialAtPosition(
  document: vscode.TextDocument,
  position: vscode.Position,
  matcher: SerialMatcher,
): SerialMatch | undefined {
  const line = document.lineAt(position.line).text;
  if (line.length <= LONG_LINE) return matcher.matchAt(line, position.character);
  // A minified file's one line can be megabytes: look only around the cursor
  // (a serial number is at most MAX_SERIAL_NUMBER_LENGTH long).
  const from = Math.max(0, position.character - 2 * MAX_SERIAL_NUMBER_LENGTH);
  const near = line.slice(from, position.character + 2 * MAX_SERIAL_NUMBER_LENGTH);
  const match = matcher.matchAt(near, position.character - from);
  return match === undefined ? undefined : { serialNumber: match.serialNumber, start: match.start + from, end: match.end + from };
}

export class SerialAtCursorContext extends Disposable {
  private readonly updates = this.register(
    new Debouncer(() => {
      this.update();
    }, DEBOUNCE_MS),
  );
  private value = false;

  constructor(private readonly settings: SerialSettings) {
    super();
    this.register(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor === vscode.window.activeTextEditor) this.updates.trigger();
      }),
    );
    this.register(
      vscode.window.onDidChangeActiveTextEditor(() => {
        this.updates.trigger();
      }),
    );
    this.register(
      settings.onDidChange(() => {
        this.updates.trigger();
      }),
    );
    this.updates.trigger();
  }

  private update(): void {
    const editor = vscode.window.activeTextEditor;
    const next = editor !== undefined && serialAtCursor(editor, this.settings) !== undefined;
    if (next !== this.value) {
      this.value = next;
      setContext(CONTEXT_KEYS.serialAtCursor, next);
    }
  }
}
