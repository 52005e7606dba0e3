// "In This Workspace": finds the workspace files the include glob names
// (honouring files.exclude and search.exclude, at most workspaceScan.maxFiles),
// reads them and collects the serial numbers the serial-number pattern finds.
// Cancellable between files; only runs when the group is expanded or the user
// asks for a scan.
import * as vscode from 'vscode';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import { NamedFileError } from '../../core/common/namedFiles';
import { readWorkspaceFile } from '../workbench/workspaceFiles';
import { excludeGlob, MAX_SCANNED_FILE_BYTES, SerialCollector, type FoundSerial } from '../../core/domain/workspaceScan/workspaceSerials';

export interface ScanSettings {
  readonly include: string;
  readonly maxFiles: number;
}

export interface ScanResult {
  readonly found: readonly FoundSerial[];
  readonly filesScanned: number;
  /** The workspace has more files than maxFiles: only the first maxFiles were scanned. */
  readonly capped: boolean;
  /** Files left unread for being larger than MAX_SCANNED_FILE_BYTES: the group says how many. */
  readonly tooLarge: number;
  /** Files naming more serial numbers than MAX_MATCHES_PER_FILE: only their first ones are listed. */
  readonly filesCut: number;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

function looksBinary(bytes: Uint8Array): boolean {
  const probe = Math.min(bytes.length, 4096);
  for (let i = 0; i < probe; i++) if (bytes[i] === 0) return true;
  return false;
}

/** `matcher` is asked for once the files are found (see ScanRunner). */
export async function scanWorkspace(
  matcher: () => SerialMatcher,
  settings: ScanSettings,
  token: vscode.CancellationToken,
  progress?: (filesScanned: number, total: number) => void,
): Promise<ScanResult> {
  const exclude = excludeGlob(
    vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude'),
    vscode.workspace.getConfiguration('search').get<Record<string, unknown>>('exclude'),
  );
  const maxFiles = Math.max(1, Math.floor(settings.maxFiles));
  // One more than the limit: a workspace of exactly maxFiles files is scanned whole, not said to be cut.
  const listed = await vscode.workspace.findFiles(settings.include, exclude ?? null, maxFiles + 1, token);
  const capped = listed.length > maxFiles;
  const files = capped ? listed.slice(0, maxFiles) : listed;
  const collector = new SerialCollector(matcher());
  let scanned = 0;
  let tooLarge = 0;
  for (const file of files) {
    if (token.isCancellationRequested) break;
    try {
      const bytes = await readWorkspaceFile(file, MAX_SCANNED_FILE_BYTES);
      if (!looksBinary(bytes)) collector.add(file.toString(), decoder.decode(bytes));
    } catch (error) {
      // A link out of its folder, deleted or unreadable meanwhile: skip it, the scan is best effort. Too large is said.
      if (error instanceof NamedFileError && error.refusal === 'too-large') tooLarge++;
    }
    scanned++;
    progress?.(scanned, files.length);
    // Let the extension host breathe on large workspaces.
    if (scanned % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  return { found: collector.result(), filesScanned: scanned, capped, tooLarge, filesCut: collector.filesCut };
}
