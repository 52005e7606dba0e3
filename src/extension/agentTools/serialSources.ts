// Where the scope tool finds serial numbers: the active editor, one file, or
// the workspace scan. Files are read only inside the open workspace folders
// (an agent's path may come from anywhere, including a hostile file), judged
// by REAL paths: "..", a file: URI and a symbolic link in a cloned repository
// (`docs -> /`) all resolve before the comparison, and every refusal reads the
// same, so it tells nothing about a file outside. At most
// MAX_SCANNED_FILE_BYTES, and never when binary. The matching and counting is
// the workspace scan's own (domain/workspaceScan); the scan itself is passed
// in at wiring, as it belongs to the Machines view. Its texts go into a tool
// result only, so they stay English like the rest (domain/agentTools/toolResults.ts).
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import { escapeMarkdown, toSingleLine } from '../../core/common/markdownText';
import { NamedFileError, readNamedFile } from '../../core/common/namedFiles';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import type { SerialScopeInput } from '../../core/domain/agentTools/toolInput';
import {
  MAX_MATCHES_PER_FILE,
  MAX_SCANNED_FILE_BYTES,
  SerialCollector,
  type FoundSerial,
} from '../../core/domain/workspaceScan/workspaceSerials';
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

export type FoundInScope =
  | {
      readonly ok: true;
      readonly found: readonly FoundSerial[];
      readonly where: string;
      /** Display path of the one file read (editor and file sources). */
      readonly file?: string;
      readonly filesScanned?: number;
      readonly capped: boolean;
    }
  | { readonly ok: false; readonly problem: string };

export interface SourceDeps {
  readonly settings: SettingsReader;
  readonly scanWorkspace: WorkspaceScanner;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

function inOneText(matcher: SerialMatcher, uri: vscode.Uri, text: string, where: string): FoundInScope {
  const collector = new SerialCollector(matcher);
  collector.add(uri.toString(), text);
  const found = collector.result();
  const occurrences = found.reduce((sum, serial) => sum + serial.occurrences, 0);
  return { ok: true, found, where, file: vscode.workspace.asRelativePath(uri), capped: occurrences >= MAX_MATCHES_PER_FILE };
}

/**
 * The one answer for every path that is not read: outside the folders, missing,
 * not a file, or not on a local disk. Being the same for all, it says nothing
 * about whether a file outside the workspace exists.
 */
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

/** A path relative to the workspace that stays below it: not absolute, not a URI, no "..". */
export function isPlainPath(path: string): boolean {
  return !isAbsolute(path) && !/^[a-z][a-z0-9+.-]+:/i.test(path) && !path.split(/[\\/]/).includes('..');
}

/**
 * The scope tool's preparation for "source": "file": the progress message names
 * the file; a path that leaves the plain form (absolute, a URI, or with ".."
 * in it: where a hostile file would point an agent) asks the user first,
 * naming it. Paths that resolve outside the workspace are refused whatever
 * the answer.
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
  let bytes: Uint8Array;
  try {
    // Opened, then checked: still a regular file below the workspace folder (a folder swapped for a link meanwhile is refused).
    bytes = await readNamedFile(uri.fsPath, { maxBytes: MAX_SCANNED_FILE_BYTES, within: folder, noFinalLink: true });
  } catch (error) {
    if (error instanceof NamedFileError && error.refusal === 'tooLarge')
      return { problem: `The file is larger than ${MAX_SCANNED_FILE_BYTES / 1024 / 1024} MiB, so it is not read.` };
    return { problem: NOT_IN_WORKSPACE };
  }
  if (bytes.subarray(0, 4096).includes(0)) return { problem: 'The file looks binary, so it is not read.' };
  return decoder.decode(bytes);
}

export async function serialsInScope(
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
