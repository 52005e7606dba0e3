// Workspace files read and chosen files written on VS Code's URIs: a local one through
// common/namedFiles.ts; a remote one through its file system provider, written to a new file beside it
// and renamed over the name, so no link there is written through.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { NamedFileError, readNamedFile, writeNamedFile } from '../../core/common/namedFiles';

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
  if (existing !== undefined && (existing.type & vscode.FileType.File) === 0) throw new NamedFileError(target.path, 'not-a-file');
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

/** A local file is checked to be a regular file still inside its workspace folder. */
export async function readWorkspaceFile(file: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
  if (file.scheme === 'file') {
    const folder = vscode.workspace.getWorkspaceFolder(file);
    return readNamedFile(file.fsPath, { maxBytes, ...(folder?.uri.scheme === 'file' ? { within: folder.uri.fsPath } : {}) });
  }
  const stat = await vscode.workspace.fs.stat(file);
  if ((stat.type & vscode.FileType.File) === 0) throw new NamedFileError(file.path, 'not-a-file');
  if (stat.size > maxBytes) throw new NamedFileError(file.path, 'too-large');
  return vscode.workspace.fs.readFile(file);
}
