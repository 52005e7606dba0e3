// The few vscode APIs the hover provider touches, so the benchmark can run the
// real provider (src/extension/editor/serialHoverProvider.ts) in plain Node: Hover,
// MarkdownString, Range, Position, CancellationTokenSource, env.language and
// l10n.t. Loading this module makes `require('vscode')` resolve to this very
// module, so import it before anything that imports vscode (the bench entry
// does, first of all). Bench-only: the unit tier never sees it, and the
// extension gets the real API.

import Module from 'node:module';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { plainLocalize } from '../../src/core/common/localize';
import { compileIncludeGlob } from '../../src/core/domain/workspaceScan/includeGlob';

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
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, '\\$&');
    return this;
  }
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

// ---- The workspace, the tree and the Problems panel (monorepo.bench.ts) ----------------------------
// A workspace of one local folder (`workspace.root`, set by the bench): findFiles walks it as VS Code's
// search does (the include glob, no node_modules or .git), asynchronously, as the search runs outside
// the extension host's thread; documents are what the bench opens; diagnostics are kept in a map.

export class CancellationError extends Error {}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static parse(text: string): Uri {
    const colon = text.indexOf(':');
    return new Uri(colon > 0 ? text.slice(0, colon) : 'file', colon > 0 ? text.slice(colon + 1).replace(/^\/\//, '') : text);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string | boolean;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  accessibilityInformation?: unknown;
  resourceUri?: Uri;
  constructor(
    readonly label: unknown,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  source?: string;
  code?: string | number;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity,
  ) {}
}

type Listener<T> = (value: T) => unknown;
const noListener = { dispose: (): void => undefined };
const none =
  <T>() =>
  (_listener: Listener<T>): { dispose(): void } =>
    noListener;

/** What the Problems panel holds: the bench reads it. */
export const diagnostics = new Map<string, readonly Diagnostic[]>();

export const languages = {
  match: (): number => 10,
  createDiagnosticCollection: () => ({
    set: (uri: Uri, entries: readonly Diagnostic[]) => diagnostics.set(uri.toString(), entries),
    delete: (uri: Uri) => diagnostics.delete(uri.toString()),
    clear: () => {
      diagnostics.clear();
    },
    dispose: () => {
      diagnostics.clear();
    },
  }),
};

/** An open document of `text`, as VS Code hands it to extensions (the parts the Problems feed reads). */
export function textDocument(uri: Uri, text: string): unknown {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  return {
    uri,
    version: 1,
    isClosed: false,
    languageId: 'yaml',
    lineCount: lines.length,
    lineAt: (line: number) => {
      const lineText = lines[line] ?? '';
      return { text: lineText, range: new Range(new Position(line, 0), new Position(line, lineText.length)) };
    },
    offsetAt: (position: Position) => (offsets[position.line] ?? offset) + position.character,
  };
}

async function filesUnder(root: string, include: (relative: string) => boolean, max: number): Promise<Uri[]> {
  const found: Uri[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (found.length >= max) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== '.git') await walk(path);
      } else if (entry.isFile() && include(relative(root, path))) found.push(Uri.file(path));
    }
  };
  await walk(root);
  return found;
}

export const workspace = {
  root: '',
  textDocuments: [] as unknown[],
  getConfiguration: () => ({ get: (): undefined => undefined }),
  getWorkspaceFolder(uri: Uri): { uri: Uri } | undefined {
    return uri.path.startsWith(this.root) ? { uri: Uri.file(this.root) } : undefined;
  },
  asRelativePath(uri: Uri): string {
    return uri.path.startsWith(`${this.root}/`) ? uri.path.slice(this.root.length + 1) : uri.path;
  },
  async findFiles(include: string, _exclude: unknown, maxResults: number): Promise<Uri[]> {
    const glob = compileIncludeGlob(include, plainLocalize);
    if ('problem' in glob) throw new Error(glob.problem);
    return filesUnder(this.root, (path) => glob.matches(path), maxResults);
  },
  onDidOpenTextDocument: none<unknown>(),
  onDidCloseTextDocument: none<unknown>(),
  onDidChangeTextDocument: none<unknown>(),
  onDidChangeConfiguration: none<unknown>(),
};
