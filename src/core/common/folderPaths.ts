// Paths a repository or a command line names, compared as the file system compares them: through a
// path module (node:path is this platform's; win32 compares drive letters and names case-insensitively,
// takes / and \ alike and knows UNC shares), never as strings.
import * as nodePath from 'node:path';
import type { PlatformPath } from 'node:path';

/** Whether `real` is `folder` or below it (both absolute). Another drive or share is outside. */
export function isInsideFolder(folder: string, real: string, path: PlatformPath = nodePath): boolean {
  const rel = path.relative(folder, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The folders from `start` up to `top` (both absolute), nearest first; to the root when `top` is not above `start`. */
export function foldersUpTo(start: string, top: string, path: PlatformPath = nodePath): string[] {
  const folders: string[] = [];
  for (let folder = start; ;) {
    folders.push(folder);
    const parent = path.dirname(folder);
    // relative() === '' is "the same folder" as the file system names it (C:\Repo and c:\repo on Windows).
    if (path.relative(folder, top) === '' || parent === folder) return folders;
    folder = parent;
  }
}

/** A file below a scanned folder as an include glob reads it: its names joined by `/` whatever the separator. */
export function globPathOf(folder: string, file: string, path: PlatformPath = nodePath): string {
  return path.relative(folder, file).split(path.sep).join('/');
}
