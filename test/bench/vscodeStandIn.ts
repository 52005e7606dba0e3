// The few vscode APIs the hover provider touches, so the benchmark can run the
// real provider (src/extension/editor/serialHoverProvider.ts) in plain Node: Hover,
// MarkdownString, Range, Position, CancellationTokenSource, env.language and
// l10n.t. Loading this module makes `require('vscode')` resolve to this very
// module, so import it before anything that imports vscode (the bench entry
// does, first of all). Bench-only: the unit tier never sees it, and the
// extension gets the real API.

import Module from 'node:module';
import { plainLocalize } from '../../src/core/common/localize';

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export class MarkdownString {
  isTrusted: boolean | { readonly enabledCommands: readonly string[] } | undefined;
  supportHtml = false;
  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}
}

export class Hover {
  constructor(
    readonly contents: MarkdownString,
    readonly range?: Range,
  ) {}
}

export class CancellationTokenSource {
  readonly #listeners = new Set<() => unknown>();
  #cancelled = false;
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (listener: () => unknown): { dispose(): void } => {
      this.#listeners.add(listener);
      return { dispose: () => this.#listeners.delete(listener) };
    },
  };

  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.token.isCancellationRequested = true;
    for (const listener of this.#listeners) listener();
  }

  dispose(): void {
    this.#listeners.clear();
  }
}

export const env = { language: 'en' };
export const l10n = { t: plainLocalize };

/** A one-line text document: what the provider asks of vscode.TextDocument, as VS Code answers it. */
export function oneLineDocument(text: string): { lineAt(line: number): { readonly text: string }; getText(range: Range): string } {
  return {
    // The hover asks the matcher on the line (src/extension/editor/serialAtCursor.ts), never VS Code's word pattern.
    lineAt: () => ({ text }),
    getText(range) {
      return text.slice(range.start.character, range.end.character);
    },
  };
}

type ResolveFilename = (request: string, ...rest: unknown[]) => string;

const loader = Module as unknown as { _resolveFilename: ResolveFilename };
const resolveFilename = loader._resolveFilename;
loader._resolveFilename = (request, ...rest) => (request === 'vscode' ? __filename : resolveFilename(request, ...rest));
