// The extension's reader of workspace files and writer of the files the user
// or a caller chose (an export's save dialog, a command's target), on VS
// Code's URIs. A local file goes through
// common/namedFiles.ts (never through a symlink or a hard link: a new file of
// its own, renamed over the name). A remote one (SSH, WSL, a container, a
// virtual file system) is VS Code's file system provider's: a symlink or a
// folder at the name is refused, the bytes are written to a new file beside
// it and renamed over the name, so the write replaces the name and never goes
// into the file a link or a second name points to. A remote file is read
// through VS Code after its stat says it is a file within the limit.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { NamedFileError, readNamedFile, writeNamedFile } from '../../core/common/namedFiles';

/** Writes `bytes` to `target` as described above; throws a NamedFileError (a LocalizedError) or VS Code's FileSystemError. */
export async function writeSavedFile(target: vscode.Uri, bytes: Uint8Array): Promise<void> {
  if (target.scheme === 'file') {
    await writeNamedFile(target.fsPath, bytes);
    return;
  }
  const existing = await vscode.workspace.fs.stat(target).then(
    (stat) => stat,
    () => undefined,
  );
  if (existing !== undefined && (existing.type & vscode.FileType.SymbolicLink) !== 0) throw new NamedFileError(target.path, 'symlink');
  if (existing !== undefined && (existing.type & vscode.FileType.File) === 0) throw new NamedFileError(target.path, 'notAFile');
  const name = target.path.split('/').pop() ?? 'export';
  const temporary = vscode.Uri.joinPath(target, '..', `.${name}.${randomUUID()}.tmp`);
  await vscode.workspace.fs.writeFile(temporary, bytes);
  try {
    await vscode.workspace.fs.rename(temporary, target, { overwrite: true });
  } catch (error) {
    await Promise.resolve(vscode.workspace.fs.delete(temporary)).catch(() => undefined);
    throw error;
  }
}

/**
 * Reads a workspace file, at most `maxBytes`: a local one through common/namedFiles.ts, opened and then
 * checked to be a regular file still inside its workspace folder (a link out of the folder is not read).
 */
export async function readWorkspaceFile(file: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
  if (file.scheme === 'file') {
    const folder = vscode.workspace.getWorkspaceFolder(file);
    return readNamedFile(file.fsPath, { maxBytes, ...(folder?.uri.scheme === 'file' ? { within: folder.uri.fsPath } : {}) });
  }
  const stat = await vscode.workspace.fs.stat(file);
  if ((stat.type & vscode.FileType.File) === 0) throw new NamedFileError(file.path, 'notAFile');
  if (stat.size > maxBytes) throw new NamedFileError(file.path, 'tooLarge');
  return vscode.workspace.fs.readFile(file);
}
