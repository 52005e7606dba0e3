// The scope tool in VS Code: the active editor, one file, or the workspace scan.
// Files are read only inside the open workspace folders, judged by REAL paths
// (an agent's path may come from a hostile file), and every refusal reads the
// same, so it tells nothing about a file outside.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import { escapeMarkdown, toSingleLine } from '../../core/common/markdownText';
import { readNamedFile } from '../../core/common/namedFiles';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import type { SerialScopeInput } from '../../core/domain/agentTools/toolInput';
import type { FoundSerial } from '../../core/domain/workspaceScan/workspaceSerials';
import { isPlainPath, scopeFileText, serialsInText, type FoundInScope, type ToolScope } from '../../core/agents/toolScope';
import type { MachinesApi } from '../workbench/contracts/features';
import type { SerialSettings } from '../workbench/serialSettings';
import type { SettingsReader } from '../workbench/settings';

export interface WorkspaceScanResult {
  readonly found: readonly FoundSerial[];
  readonly filesScanned: number;
  /** The file cap was reached: there may be more. */
  readonly capped: boolean;
}

/** The Machines view's scan (machines/workspaceScan.ts scanWorkspace has this shape). */
export type WorkspaceScanner = (
  matcher: () => SerialMatcher,
  settings: { readonly include: string; readonly maxFiles: number },
  token: vscode.CancellationToken,
) => Promise<WorkspaceScanResult>;

export interface SourceDeps {
  readonly settings: SettingsReader;
  readonly scanWorkspace: WorkspaceScanner;
  readonly serialSettings: SerialSettings;
  readonly machines: Pick<MachinesApi, 'pinned' | 'recent'>;
}

function inOneText(matcher: SerialMatcher, uri: vscode.Uri, text: string, where: string): FoundInScope {
  return serialsInText(matcher, uri.toString(), text, where, vscode.workspace.asRelativePath(uri));
}

/** The one answer for every path not read (outside, missing, not a file, not local): it tells nothing about a file outside. */
export const NOT_IN_WORKSPACE =
  'Only existing files inside the open workspace folders are read, and there is none at that path; give a path relative to the workspace folder.';

/** True when `real` is `folder` itself or below it (both real paths). */
function isInside(folder: string, real: string): boolean {
  const rel = relative(folder, real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/** The file to read: `real` is what is read (no link left to follow), `shown` what the result names. */
interface WorkspaceFile {
  readonly real: vscode.Uri;
  readonly shown: vscode.Uri;
  /** The real path of the workspace folder it is in: what is read must still be below it when opened. */
  readonly folder: string;
}

/** The file `path` names inside an open workspace folder, or why there is none. */
async function resolveInWorkspace(path: string): Promise<WorkspaceFile | string> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return 'No folder is open in this window, so no file can be read.';
  // Real paths exist only on a local disk: a virtual workspace's files cannot be judged, so they are not read.
  const localFolders = folders.filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  let candidates: string[];
  if (/^[a-z][a-z0-9+.-]+:/i.test(path) && !isAbsolute(path)) {
    const uri = vscode.Uri.parse(path, true);
    candidates = uri.scheme === 'file' ? [resolve(uri.fsPath)] : [];
  } else {
    candidates = isAbsolute(path) ? [resolve(path)] : localFolders.map((folder) => resolve(folder, path));
  }
  const realFolders = (await Promise.all(localFolders.map(realPathOf))).filter((real) => real !== undefined);
  for (const candidate of candidates) {
    const real = await realPathOf(candidate);
    const folder = real === undefined ? undefined : realFolders.find((inside) => isInside(inside, real));
    if (real === undefined || folder === undefined) continue;
    try {
      if ((await stat(real)).isFile()) return { real: vscode.Uri.file(real), shown: vscode.Uri.file(candidate), folder };
    } catch {
      // Gone since realpath: the same answer as for no file at all.
    }
  }
  return NOT_IN_WORKSPACE;
}

/** The path an agent gave, as the chat shows it: one line, no control or bidi characters, at most 120 characters, inert Markdown. */
function shownPath(path: string): string {
  return escapeMarkdown(toSingleLine(path, 120));
}

/**
 * The scope tool's progress message for a file; a path that leaves the plain form (where a hostile file
 * would point an agent) asks the user first. Paths outside the workspace are refused whatever the answer.
 */
export function prepareFileScope(path: string): vscode.PreparedToolInvocation {
  const shown = shownPath(path);
  const invocationMessage = new vscode.MarkdownString(vscode.l10n.t('Finding serial numbers in {0}', shown));
  if (isPlainPath(path)) return { invocationMessage };
  return {
    invocationMessage,
    confirmationMessages: {
      title: vscode.l10n.t('Read {0}?', toSingleLine(path, 120)),
      message: new vscode.MarkdownString(
        vscode.l10n.t(
          'The agent asks to find serial numbers in {0}. Only a file inside the open workspace folders is read (links and ".." are resolved first); nothing is sent anywhere.',
          shown,
        ),
      ),
    },
  };
}

async function readText({ real: uri, shown, folder }: WorkspaceFile): Promise<string | { readonly problem: string }> {
  // An open document may hold unsaved changes: read what the user sees (it may be open by either path).
  const names = new Set([uri.toString(), shown.toString()]);
  const open = vscode.workspace.textDocuments.find((document) => names.has(document.uri.toString()));
  if (open) return open.getText();
  // Opened, then checked: still a regular file below the workspace folder (a folder swapped for a link meanwhile is refused).
  return scopeFileText((maxBytes) => readNamedFile(uri.fsPath, { maxBytes, within: folder, noFinalLink: true }), NOT_IN_WORKSPACE);
}

/** This window's scope: the one matcher of the views, its pinned and recent machines. */
export function workspaceScope(deps: SourceDeps): ToolScope {
  return {
    find: async (input, signal) => {
      // The one serial-number matcher the views use (a refused pattern is reported to the user there; the result tells the agent too).
      const matcher = deps.serialSettings.value.matcher;
      const source = new vscode.CancellationTokenSource();
      const cancel = () => {
        source.cancel();
      };
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const found = await serialsInScope(input, matcher, deps, source.token);
        return found.ok && matcher.problem !== undefined ? { ...found, patternProblem: matcher.problem } : found;
      } finally {
        signal.removeEventListener('abort', cancel);
        source.dispose();
      }
    },
    pinned: () => new Set(deps.machines.pinned()),
    recent: () => new Set(deps.machines.recent()),
    knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
  };
}

async function serialsInScope(
  input: SerialScopeInput,
  matcher: SerialMatcher,
  deps: SourceDeps,
  token: vscode.CancellationToken,
): Promise<FoundInScope> {
  switch (input.source) {
    case 'activeEditor': {
      const editor = vscode.window.activeTextEditor;
      if (editor === undefined)
        return {
          ok: false,
          problem: 'No text editor is active. Ask the user to open the file, or call this tool with "source": "file" or "workspace".',
        };
      return inOneText(matcher, editor.document.uri, editor.document.getText(), 'the active editor');
    }
    case 'file': {
      const file = await resolveInWorkspace(input.file ?? '');
      if (typeof file === 'string') return { ok: false, problem: file };
      const text = await readText(file);
      if (typeof text !== 'string') return { ok: false, problem: text.problem };
      return inOneText(matcher, file.shown, text, 'the file');
    }
    case 'workspace': {
      const settings = deps.settings.value;
      if (!settings['workspaceScan.enabled'])
        return {
          ok: false,
          problem:
            'The workspace scan is turned off by the setting onboardingEvents.workspaceScan.enabled. Use "source": "activeEditor" or "file" instead.',
        };
      if ((vscode.workspace.workspaceFolders?.length ?? 0) === 0)
        return { ok: false, problem: 'No folder is open in this window, so there is no workspace to scan.' };
      const result = await deps.scanWorkspace(
        () => matcher,
        { include: settings['workspaceScan.include'], maxFiles: settings['workspaceScan.maxFiles'] },
        token,
      );
      const found = result.found.map((serial) => ({
        ...serial,
        locations: serial.locations.map((location) => ({
          ...location,
          file: vscode.workspace.asRelativePath(vscode.Uri.parse(location.file)),
        })),
      }));
      return { ok: true, found, where: 'the workspace', filesScanned: result.filesScanned, capped: result.capped };
    }
  }
}
