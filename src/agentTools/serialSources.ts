// Where the scope tool finds serial numbers: the active editor, one file, or
// the workspace scan. Files are read only inside the open workspace folders
// (an agent's path may come from anywhere, including a hostile file), at most
// MAX_SCANNED_FILE_BYTES, and never when binary. The matching and counting is
// the workspace scan's own (domain/workspaceScan); the scan itself is passed
// in at wiring, as it belongs to the Machines view.
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import type { SerialScopeInput } from '../domain/agentTools/toolInput';
import { MAX_MATCHES_PER_FILE, MAX_SCANNED_FILE_BYTES, SerialCollector, type FoundSerial } from '../domain/workspaceScan/workspaceSerials';
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

/** The file `path` names inside an open workspace folder, or why there is none. */
async function resolveInWorkspace(path: string): Promise<vscode.Uri | string> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return 'No folder is open in this window, so no file can be read.';
  const candidates = /^[a-z][a-z0-9+.-]+:\/\//i.test(path)
    ? [vscode.Uri.parse(path, true)]
    : isAbsolute(path)
      ? [vscode.Uri.file(path)]
      : folders.map((folder) => vscode.Uri.joinPath(folder.uri, path));
  // joinPath resolves "..", so a path that climbs out of the folder lands outside it and is refused here.
  const inside = candidates.filter((uri) => vscode.workspace.getWorkspaceFolder(uri) !== undefined);
  if (inside.length === 0) return 'Only files inside the open workspace folders are read; give a path relative to the workspace folder.';
  for (const uri of inside) {
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.File) return uri;
    } catch {
      // Not in this folder: try the next one.
    }
  }
  return 'There is no such file in the workspace.';
}

async function readText(uri: vscode.Uri): Promise<string | { readonly problem: string }> {
  // An open document may hold unsaved changes: read what the user sees.
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) return open.getText();
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MAX_SCANNED_FILE_BYTES)
    return { problem: `The file is larger than ${MAX_SCANNED_FILE_BYTES / 1024 / 1024} MiB, so it is not read.` };
  const bytes = await vscode.workspace.fs.readFile(uri);
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
      const uri = await resolveInWorkspace(input.file ?? '');
      if (typeof uri === 'string') return { ok: false, problem: uri };
      const text = await readText(uri);
      if (typeof text !== 'string') return { ok: false, problem: text.problem };
      return inOneText(matcher, uri, text, 'the file');
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
