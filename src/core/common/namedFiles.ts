// The one reader and writer of a file a repository, a caller or a setting names: it may be a planted
// symlink, hard link, FIFO or endless device. Read: open, then check what was opened, bounded by bytes
// read. Write: a new file of our own renamed over the name, never through a link.
import { randomUUID } from 'node:crypto';
import {
  close as closeCallback,
  closeSync,
  constants,
  fstat as fstatCallback,
  fstatSync,
  open as openCallback,
  openSync,
  read as readCallback,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { lstat, open, readlink, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { LocalizedError } from './errors';
import { isInsideFolder } from './folderPaths';

export { isInsideFolder };
import { toSingleLine } from './markdownText';

export type NamedFileRefusal =
  | 'not-a-file'
  | 'too-large'
  /** Its real path leaves the folder it must stay in (a symlink or `..` out of it). */
  | 'outside'
  /** A symlink where none may be (the writer's target, or a read that follows none). */
  | 'symlink'
  /** Another user's file, or one with more than one name (a hard link we did not make). */
  | 'not-ours'
  | 'failed';

export class NamedFileError extends LocalizedError {
  constructor(
    readonly path: string,
    readonly refusal: NamedFileRefusal,
    readonly code?: string,
  ) {
    // The path as a terminal or a notification may show it: one line, no control or bidi character.
    const shown = toSingleLine(path, 300);
    super((t) => {
      switch (refusal) {
        case 'not-a-file':
          return t('{0} is not a regular file.', shown);
        case 'too-large':
          return t('{0} is larger than the limit of what is read.', shown);
        case 'outside':
          return t('{0} leads out of the folder it is in (a symbolic link); it is not followed.', shown);
        case 'symlink':
          return t('{0} is a symbolic link; it is not followed.', shown);
        case 'not-ours':
          return t('{0} belongs to another user or has another name (a hard link); it is not replaced.', shown);
        case 'failed':
          return t('Cannot read or write {0}: {1}', shown, code ?? 'error');
      }
    });
  }
}

export interface ReadLimits {
  readonly maxBytes: number;
  readonly within?: string;
  /** Refuse a symlink as the last part of the path (O_NOFOLLOW), wherever it leads. */
  readonly noFinalLink?: boolean;
  readonly ownedByUs?: boolean;
}

const POSIX = process.platform !== 'win32';
const MY_UID = process.getuid?.();

function failure(path: string, error: unknown): NamedFileError {
  if (error instanceof NamedFileError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new NamedFileError(
    path,
    code === 'ELOOP' ? 'symlink' : 'failed',
    code ?? (error instanceof Error ? error.message : String(error)),
  );
}

function openFlags(limits: ReadLimits): number {
  // Non-blocking: opening a FIFO must not wait for a writer; it is refused below as not a regular file.
  const nonBlocking = POSIX ? constants.O_NONBLOCK : 0;
  return constants.O_RDONLY | nonBlocking | (limits.noFinalLink === true && POSIX ? constants.O_NOFOLLOW : 0);
}

function checkOpened(path: string, info: Stats, limits: ReadLimits): void {
  if (!info.isFile()) throw new NamedFileError(path, 'not-a-file');
  if (limits.ownedByUs === true && MY_UID !== undefined && info.uid !== MY_UID) throw new NamedFileError(path, 'not-ours');
}

/** The real path of what `fd` opened: Linux names it in /proc; elsewhere the path's real path, if it is still that file. */
function openedRealPathSync(path: string, fd: number, info: Stats): string {
  try {
    const named = readlinkSync(`/proc/self/fd/${fd}`);
    if (isAbsolute(named)) return named;
  } catch {
    // no /proc: the path's real path, checked to be the file that was opened
  }
  const real = realpathSync(path);
  const now = statSync(real);
  if (now.dev !== info.dev || now.ino !== info.ino) throw new NamedFileError(path, 'outside');
  return real;
}

async function openedRealPath(path: string, fd: number, info: Stats): Promise<string> {
  try {
    const named = await readlink(`/proc/self/fd/${fd}`);
    if (isAbsolute(named)) return named;
  } catch {
    // as in openedRealPathSync
  }
  const real = await realpath(path);
  const now = await stat(real);
  if (now.dev !== info.dev || now.ino !== info.ino) throw new NamedFileError(path, 'outside');
  return real;
}

export function readNamedFileSync(path: string, limits: ReadLimits): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(path, openFlags(limits));
    const info = fstatSync(fd);
    checkOpened(path, info, limits);
    if (limits.within !== undefined && !isInsideFolder(realpathSync(limits.within), openedRealPathSync(path, fd, info)))
      throw new NamedFileError(path, 'outside');
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limits.maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > limits.maxBytes) throw new NamedFileError(path, 'too-large');
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw failure(path, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export async function readNamedFile(path: string, limits: ReadLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  await readNamedFileChunks(path, limits, (chunk) => {
    chunks.push(chunk);
    total += chunk.length;
  });
  return Buffer.concat(chunks, total);
}

/**
 * As readNamedFile, each chunk handed to `take` as it is read (a new buffer each time, never reused):
 * a large file is read in a stream, never held whole, and the event loop turns between chunks.
 */
export async function readNamedFileChunks(path: string, limits: ReadLimits, take: (chunk: Buffer) => void): Promise<void> {
  let fd: number | undefined;
  try {
    // The callback calls, not a FileHandle: thousands of small files are read at a fraction of its cost.
    fd = await openFd(path, openFlags(limits));
    const info = await fstatFd(fd);
    checkOpened(path, info, limits);
    if (limits.within !== undefined && !isInsideFolder(await realpath(limits.within), await openedRealPath(path, fd, info)))
      throw new NamedFileError(path, 'outside');
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, info.size + 1, limits.maxBytes + 1 - total));
      const bytesRead = await readFd(fd, chunk);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limits.maxBytes) throw new NamedFileError(path, 'too-large');
      take(chunk.subarray(0, bytesRead));
      // A short read at the size fstat gave is the end of a regular file: no read more to hear so.
      if (bytesRead < chunk.length && total >= info.size) break;
    }
  } catch (error) {
    throw failure(path, error);
  } finally {
    if (fd !== undefined) await closeFd(fd);
  }
}

function openFd(path: string, flags: number): Promise<number> {
  return new Promise((resolve, reject) => {
    openCallback(path, flags, (error, fd) => {
      if (error) reject(error);
      else resolve(fd);
    });
  });
}

function fstatFd(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => {
    fstatCallback(fd, (error, info) => {
      if (error) reject(error);
      else resolve(info);
    });
  });
}

function readFd(fd: number, chunk: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    readCallback(fd, chunk, 0, chunk.length, null, (error, bytesRead) => {
      if (error) reject(error);
      else resolve(bytesRead);
    });
  });
}

function closeFd(fd: number): Promise<void> {
  return new Promise((resolve) => {
    closeCallback(fd, () => {
      resolve();
    });
  });
}

export async function readNamedFileIfPresent(path: string, limits: ReadLimits): Promise<Buffer | undefined> {
  try {
    return await readNamedFile(path, limits);
  } catch (error) {
    if (error instanceof NamedFileError && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface WriteOptions {
  readonly mode?: number;
  readonly within?: string;
}

/**
 * An existing target must be a regular file of ours with one name; a rename replaces the name, never
 * what a link there points to.
 */
export async function writeNamedFile(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  let mode = options.mode ?? 0o600;
  try {
    const existing = await lstat(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    });
    if (existing !== undefined) {
      if (existing.isSymbolicLink()) throw new NamedFileError(path, 'symlink');
      if (!existing.isFile()) throw new NamedFileError(path, 'not-a-file');
      if (POSIX && ((MY_UID !== undefined && existing.uid !== MY_UID) || existing.nlink > 1)) throw new NamedFileError(path, 'not-ours');
      mode = existing.mode & 0o777;
    }
    const folder = dirname(path);
    if (options.within !== undefined && !isInsideFolder(await realpath(options.within), await realpath(folder)))
      throw new NamedFileError(path, 'outside');
    const temporary = join(folder, `.${basename(path)}.${randomUUID()}.tmp`);
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (POSIX ? constants.O_NOFOLLOW : 0),
      mode,
    );
    try {
      try {
        await handle.writeFile(data);
        // The mode asked for, not the umask's cut of it (an existing file's mode is kept as it was).
        if (POSIX) await handle.chmod(mode);
      } finally {
        await handle.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  } catch (error) {
    throw failure(path, error);
  }
}
