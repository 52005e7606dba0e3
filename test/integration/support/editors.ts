// The decorations the product puts into editors, read from the test side.
// VS Code offers no API to read an editor's decorations back, and its
// TextEditor objects are frozen, so this module hands the product (which
// shares the test's `vscode` API object: see user.ts) editors whose
// `setDecorations` records what was set before passing it on: every editor
// `vscode.window` gives out — visibleTextEditors, activeTextEditor and the
// editor events — is such a wrapper, one per real editor (so identity holds),
// inheriting everything else from the real one. The product keeps no copy
// of what it rendered for tests; the inline status is read here as the user
// sees it: text after a serial number, in a state's colour and glyph.
//
// Installed once per extension host before mocha runs (test/integration/index.ts).
import * as vscode from 'vscode';
import { STATE_LOOKS, type MachineState } from '../../../src/core/domain/events/eventState';

/** An inline status as the editor shows it: the text after a serial number. */
export interface ShownStatus {
  readonly line: number;
  readonly character: number;
  readonly serialNumber: string;
  readonly state: MachineState;
  readonly text: string;
}

type Decorations = readonly vscode.Range[] | readonly vscode.DecorationOptions[];

/** The last decorations set per document and decoration type. */
const shown = new Map<string, Map<vscode.TextEditorDecorationType, Decorations>>();
const wrappers = new WeakMap<vscode.TextEditor, vscode.TextEditor>();
let installed = false;

function wrap(editor: vscode.TextEditor): vscode.TextEditor;
function wrap(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined;
function wrap(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  if (editor === undefined) return undefined;
  let wrapper = wrappers.get(editor);
  if (wrapper === undefined) {
    wrapper = Object.create(editor, {
      setDecorations: {
        value: (type: vscode.TextEditorDecorationType, decorations: Decorations): void => {
          const key = editor.document.uri.toString();
          let byType = shown.get(key);
          if (byType === undefined) {
            byType = new Map<vscode.TextEditorDecorationType, Decorations>();
            shown.set(key, byType);
          }
          byType.set(type, [...decorations] as Decorations);
          editor.setDecorations(type, decorations);
        },
      },
    }) as vscode.TextEditor;
    wrappers.set(editor, wrapper);
  }
  return wrapper;
}

type Listener<T> = (event: T) => unknown;
type EventFn<T> = (listener: Listener<T>, thisArgs?: unknown, disposables?: vscode.Disposable[]) => vscode.Disposable;

/** Replaces the editors `vscode.window` hands out with recording wrappers. Idempotent. */
export function installEditors(): void {
  if (installed) return;
  installed = true;
  const window = vscode.window as unknown as Record<string, unknown>;
  for (const name of ['visibleTextEditors', 'activeTextEditor'] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(vscode.window, name);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with vscode.window as this below
    const real = descriptor?.get;
    if (real === undefined) throw new Error(`vscode.window.${name} is not a getter: the editors cannot be read from the test side`);
    Object.defineProperty(vscode.window, name, {
      configurable: true,
      enumerable: true,
      get: () => {
        const value = real.call(vscode.window) as vscode.TextEditor | readonly vscode.TextEditor[] | undefined;
        return Array.isArray(value) ? value.map((editor: vscode.TextEditor) => wrap(editor)) : wrap(value as vscode.TextEditor | undefined);
      },
    });
  }
  const mapEvent = <T>(name: string, map: (event: T) => T): void => {
    const real = window[name] as EventFn<T>;
    window[name] = ((listener, thisArgs, disposables) =>
      real.call(vscode.window, (event: T) => listener.call(thisArgs, map(event)), undefined, disposables)) satisfies EventFn<T>;
  };
  mapEvent<readonly vscode.TextEditor[]>('onDidChangeVisibleTextEditors', (editors) => editors.map((editor) => wrap(editor)));
  mapEvent<vscode.TextEditor | undefined>('onDidChangeActiveTextEditor', (editor) => wrap(editor));
  for (const name of [
    'onDidChangeTextEditorVisibleRanges',
    'onDidChangeTextEditorSelection',
    'onDidChangeTextEditorOptions',
    'onDidChangeTextEditorViewColumn',
  ])
    mapEvent<{ readonly textEditor: vscode.TextEditor }>(name, (event) => ({ ...event, textEditor: wrap(event.textEditor) }));
}

const STATE_BY_GLYPH = new Map(Object.entries(STATE_LOOKS).map(([state, look]) => [look.glyph, state as MachineState]));

/** The inline statuses the editors of `uri` show now, in order. */
export function inlineStatuses(uri: vscode.Uri): readonly ShownStatus[] {
  if (!installed) throw new Error('the editors are not installed (test/integration/index.ts installs them before mocha runs)');
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const statuses: ShownStatus[] = [];
  for (const decorations of shown.get(uri.toString())?.values() ?? []) {
    for (const decoration of decorations) {
      if (decoration instanceof vscode.Range) continue;
      const text = decoration.renderOptions?.after?.contentText;
      if (text === undefined) continue;
      const { line, character } = decoration.range.start;
      const state = STATE_BY_GLYPH.get(text.split(' ')[0] ?? '');
      if (state === undefined) throw new Error(`an inline status without a state's glyph: ${text}`);
      // The serial number is the word the text follows.
      const before = document?.lineAt(line).text.slice(0, character) ?? '';
      statuses.push({ line, character, serialNumber: /[\w.-]+$/.exec(before)?.[0] ?? '', state, text });
    }
  }
  return statuses.sort((a, b) => a.line - b.line || a.character - b.character);
}
