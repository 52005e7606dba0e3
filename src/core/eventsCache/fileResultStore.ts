// The last good result of each machine on disk, per environment, shown stale after a reload or while
// the API is away. Raw events are stored and validated again on load, so an old or edited file passes
// the same checks as a fresh answer; the listing is kept in memory, so a miss never touches the disk.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NamedFileError, readNamedFile, writeNamedFile } from '../common/namedFiles';
import { MAX_BYTES_PER_MACHINE } from '../client/events/eventsClient';
import type { EventsResult } from '../client/model';
import type { TimestampUnitSetting } from '../client/timestamp';
import { sortNewestFirst, validateEvents } from '../client/validateEvents';
import type { ResultStore } from './eventsCache';

const FORMAT_VERSION = 1;

/** Not read to learn from (still shown when asked for): learning from thousands of copies stays in a fixed budget. */
export const MAX_LEARNED_FILE_BYTES = 2 * 1024 * 1024;
const MAX_STORED_FILE_BYTES = 2 * MAX_BYTES_PER_MACHINE;
/** Our own folder, read as any named file: a regular file of ours, no link at its name, bounded by bytes read. */
const storedLimits = (maxBytes: number) => ({ maxBytes, noFinalLink: true, ownedByUs: true }) as const;

interface StoredResult {
  readonly version: number;
  readonly serialNumber: string;
  readonly fetchedAt: number;
  readonly truncated: boolean;
  readonly events: readonly unknown[];
}

export interface FileResultStoreOptions {
  readonly directory: string;
  readonly scope: () => string | undefined;
  readonly timestampUnit?: () => TimestampUnitSetting;
  /** Reported, never thrown: a broken cache must not break the tree. */
  readonly onError?: (message: string, error: unknown) => void;
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

function nameOf(serialNumber: string): string {
  return `${digest(`serial:${serialNumber}`)}.json`;
}

function isStored(value: unknown): value is StoredResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v['version'] === FORMAT_VERSION &&
    typeof v['serialNumber'] === 'string' &&
    typeof v['fetchedAt'] === 'number' &&
    Number.isFinite(v['fetchedAt']) &&
    typeof v['truncated'] === 'boolean' &&
    Array.isArray(v['events'])
  );
}

export class FileResultStore implements ResultStore {
  /** Writes not yet on disk, by file: a load sees them, and only the newest of a burst is written. */
  private readonly pending = new Map<string, StoredResult>();
  private readonly writing = new Set<string>();
  private idle: Promise<void> = Promise.resolve();
  private readonly index = new Map<string, Promise<Set<string>>>();

  constructor(private readonly options: FileResultStoreOptions) {}

  /** The directory of one scope; names are hashes, so no serial number can escape the directory. */
  private directoryOf(scope: string): string {
    return join(this.options.directory, digest(`env:${scope}`));
  }

  private fileOf(scope: string, serialNumber: string): string {
    return join(this.directoryOf(scope), nameOf(serialNumber));
  }

  private namesIn(directory: string): Promise<Set<string>> {
    let names = this.index.get(directory);
    if (names === undefined) {
      names = readdir(directory).then(
        (list) => new Set(list),
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
            this.options.onError?.('The cached events could not be listed; they will be fetched again.', error);
          return new Set<string>();
        },
      );
      this.index.set(directory, names);
    }
    return names;
  }

  async load(serialNumber: string): Promise<EventsResult | undefined> {
    const scope = this.options.scope();
    if (scope === undefined) return undefined;
    const file = this.fileOf(scope, serialNumber);
    let stored: unknown = this.pending.get(file);
    if (stored === undefined) {
      if (!(await this.namesIn(this.directoryOf(scope))).has(nameOf(serialNumber))) return undefined;
      try {
        stored = JSON.parse((await readNamedFile(file, storedLimits(MAX_STORED_FILE_BYTES))).toString('utf8'));
      } catch (error) {
        if (!(error instanceof NamedFileError && error.code === 'ENOENT'))
          this.options.onError?.(`The cached events of ${serialNumber} could not be read; they will be fetched again.`, error);
        return undefined;
      }
    }
    return this.resultOf(stored, serialNumber);
  }

  /**
   * What the line's history learns from before anything is fetched: one file at a time, with a turn of
   * the event loop between, so memory and responsiveness do not depend on the copies.
   */
  async *each(limit: number): AsyncGenerator<EventsResult> {
    const scope = this.options.scope();
    if (scope === undefined) return;
    const directory = this.directoryOf(scope);
    const names = [...(await this.namesIn(directory))].filter((name) => name.endsWith('.json')).slice(0, limit);
    for (const name of names) {
      await new Promise((resolve) => setImmediate(resolve));
      // Another environment signed in meanwhile: its copies are not this one's.
      if (this.options.scope() !== scope) return;
      const file = join(directory, name);
      let stored: unknown = this.pending.get(file);
      if (stored === undefined) {
        try {
          stored = JSON.parse((await readNamedFile(file, storedLimits(MAX_LEARNED_FILE_BYTES))).toString('utf8'));
        } catch {
          continue; // Gone or half-written: load() reports it when the machine is asked for.
        }
      }
      const serialNumber = isStored(stored) ? stored.serialNumber : undefined;
      // The name is the serial number's hash: a file under another name is not what it claims to be.
      if (serialNumber === undefined || nameOf(serialNumber) !== name) continue;
      const result = this.resultOf(stored, serialNumber);
      stored = undefined;
      if (result !== undefined) yield result;
    }
  }

  private resultOf(stored: unknown, serialNumber: string): EventsResult | undefined {
    try {
      if (!isStored(stored) || stored.serialNumber !== serialNumber) return undefined;
      const { events, invalid } = validateEvents(stored.events, {
        serialNumber,
        timestampUnit: this.options.timestampUnit?.() ?? 'auto',
      });
      return { serialNumber, events: sortNewestFirst(events), invalid, fetchedAt: stored.fetchedAt, truncated: stored.truncated };
    } catch (error) {
      this.options.onError?.(`The cached events of ${serialNumber} could not be read; they will be fetched again.`, error);
      return undefined;
    }
  }

  save(result: EventsResult): void {
    const scope = this.options.scope();
    if (scope === undefined) return;
    const stored: StoredResult = {
      version: FORMAT_VERSION,
      serialNumber: result.serialNumber,
      fetchedAt: result.fetchedAt,
      truncated: result.truncated,
      events: result.events.map((event) => event.raw),
    };
    const file = this.fileOf(scope, result.serialNumber);
    this.pending.set(file, stored);
    void this.namesIn(this.directoryOf(scope)).then((names) => names.add(nameOf(result.serialNumber)));
    if (!this.writing.has(file)) this.idle = Promise.all([this.idle, this.drain(file)]).then(() => undefined);
  }

  flush(): Promise<void> {
    return this.idle;
  }

  private async drain(file: string): Promise<void> {
    this.writing.add(file);
    try {
      for (let next = this.pending.get(file); next !== undefined; next = this.pending.get(file)) {
        try {
          await mkdir(join(file, '..'), { recursive: true });
          // The writer writes a new file and renames it: a crash mid-write leaves the previous copy, never half a file.
          await writeNamedFile(file, JSON.stringify(next));
        } catch (error) {
          this.options.onError?.(`The events of ${next.serialNumber} could not be cached for offline use.`, error);
        }
        // Only forget it when no newer save arrived while writing.
        if (this.pending.get(file) === next) this.pending.delete(file);
      }
    } finally {
      this.writing.delete(file);
    }
  }

  clearScope(scope: string): void {
    const directory = this.directoryOf(scope);
    rmSync(directory, { recursive: true, force: true });
    this.index.set(directory, Promise.resolve(new Set()));
  }
}
