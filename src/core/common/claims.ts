// Who tells the user about a thing that happened once, across every window of the profile, so two
// windows never both tell it.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from './errors';
import { isRecord } from './guards';

export interface Claims {
  claim(key: string): Promise<boolean>;
}

/** Claims older than this are removed at start: an outcome is told within minutes of happening, never weeks later. */
const CLAIM_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_CLAIM_FILES_PRUNED = 2000;

/**
 * Files in the shared global storage: O_EXCL creation succeeds for exactly one process, which a
 * read-then-write of global state cannot promise. Unwritable answers true: twice beats never.
 */
export class FileClaims implements Claims {
  constructor(
    private readonly folder: string,
    private readonly log?: (message: string) => void,
  ) {}

  async claim(key: string): Promise<boolean> {
    const name = createHash('sha256').update(key).digest('hex').slice(0, 40);
    try {
      await mkdir(this.folder, { recursive: true });
      const file = await open(join(this.folder, name), 'wx');
      await file.close();
      return true;
    } catch (error) {
      if (isRecord(error) && error['code'] === 'EEXIST') return false;
      this.log?.(`Could not record a watch outcome as told: ${errorMessage(error)}`);
      return true;
    }
  }

  async prune(now = Date.now()): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return;
    }
    for (const name of names.slice(0, MAX_CLAIM_FILES_PRUNED)) {
      const path = join(this.folder, name);
      try {
        if (now - (await stat(path)).mtimeMs > CLAIM_LIFETIME_MS) await unlink(path);
      } catch {
        // Another window pruned it first.
      }
    }
  }
}
