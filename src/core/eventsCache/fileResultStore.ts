// The last good result of each machine on disk, per environment, shown stale after a reload or while
// the API is away. Raw events are stored and validated again on load, so an old or edited file passes
// the same checks as a fresh answer; the listing is kept in memory, so a miss never touches the disk.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NamedFileError, readNamedFile, readNamedFileChunks, writeNamedFile } from '../common/namedFiles';
import { MAX_BYTES_PER_MACHINE } from '../client/events/eventsClient';
import type { EventsResult, OnboardingEvent } from '../client/model';
import type { TimestampUnitSetting } from '../client/timestamp';
import { sortNewestFirst, validateEvent, validateEvents } from '../client/validateEvents';
import type { ResultStore } from './eventsCache';
import { MAX_STORED_EVENT_BYTES, StoredCopyStream } from './storedCopyStream';

const FORMAT_VERSION = 1;

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

/** What a stored copy says of itself beside its events. */
export interface StoredFields {
  readonly serialNumber: string;
  readonly fetchedAt: number;
  readonly truncated: boolean;
}

/** One stored copy, read in a stream each time it is asked. */
export interface StoredCopy {
  /** Hands each valid event to `take` in the copy's order; its fields, or undefined when it is no copy of ours (then `take` may have seen some). */
  read(take: (event: OnboardingEvent) => void): Promise<StoredFields | undefined>;
}

/** Thrown out of a read whose first event shows the copy is under another machine's name. */
class NotOurs extends Error {}

function fieldsOf(stored: StoredResult): StoredFields {
  return { serialNumber: stored.serialNumber, fetchedAt: stored.fetchedAt, truncated: stored.truncated };
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
   * What the line's history learns from before anything is fetched: every copy of the scope, each read
   * in a stream when asked (as often as asked).
   */
  async *copies(): AsyncGenerator<StoredCopy> {
    const scope = this.options.scope();
    if (scope === undefined) return;
    const directory = this.directoryOf(scope);
    for (const name of await this.namesIn(directory)) {
      if (!name.endsWith('.json')) continue;
      // Another environment signed in meanwhile: its copies are not this one's.
      if (this.options.scope() !== scope) return;
      const file = join(directory, name);
      yield { read: (take) => this.readCopy(file, name, take) };
    }
  }

  /** One copy's valid events in its order, parsed one at a time; its fields once it is read whole, undefined when it is not a copy of ours. */
  private async readCopy(file: string, name: string, take: (event: OnboardingEvent) => void): Promise<StoredFields | undefined> {
    const timestampUnit = this.options.timestampUnit?.() ?? 'auto';
    const pending = this.pending.get(file);
    let serialNumber: string | undefined;
    // The name is the serial number's hash: a file under another name is not what it claims to be.
    const teach = (raw: unknown, serial: unknown): void => {
      if (serialNumber === undefined && (typeof serial !== 'string' || nameOf(serial) !== name)) throw new NotOurs();
      serialNumber = serial as string;
      const event = validateEvent(raw, serialNumber, timestampUnit);
      if (typeof event !== 'string') take(event);
    };
    try {
      if (pending !== undefined) {
        for (const raw of pending.events) teach(raw, pending.serialNumber);
        return fieldsOf(pending);
      }
      const stream = new StoredCopyStream((raw) => {
        teach(raw, stream.fields.get('serialNumber'));
      });
      await readNamedFileChunks(file, storedLimits(MAX_STORED_FILE_BYTES), (chunk) => {
        stream.write(chunk);
      });
      stream.end();
      if (stream.problem === 'event-too-large')
        this.reportUnread(name, stream, `it holds an event larger than ${MAX_STORED_EVENT_BYTES / (1024 * 1024)} MB`);
      const stored = { ...Object.fromEntries(stream.fields), events: [] };
      const whole = stream.complete && stream.fields.get('events') === true;
      return whole && isStored(stored) && nameOf(stored.serialNumber) === name ? fieldsOf(stored) : undefined;
    } catch (error) {
      if (error instanceof NamedFileError && error.refusal === 'too-large')
        this.options.onError?.(
          `A cached copy of events is larger than ${MAX_STORED_FILE_BYTES / (1024 * 1024)} MB; the line's history does not learn from it.`,
          error,
        );
      // Gone, half-written or not ours: load() reports it when the machine is asked for.
      return undefined;
    }
  }

  private reportUnread(name: string, stream: StoredCopyStream, why: string): void {
    const serialNumber = stream.fields.get('serialNumber');
    const named = typeof serialNumber === 'string' && nameOf(serialNumber) === name ? serialNumber : name;
    this.options.onError?.(`The cached events of ${named} are not learned from by the line's history: ${why}.`, new Error(why));
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
