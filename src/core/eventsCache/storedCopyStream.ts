// A stored copy (`{ "version", "serialNumber", "fetchedAt", "truncated", "events": [...] }`, as
// FileResultStore writes it) read in a stream: each field and each event is parsed alone when it ends,
// so a copy of any size is read holding at most one event of it.

/** One event of a stored copy held at most: a larger one stops the copy from being read in a stream. */
export const MAX_STORED_EVENT_BYTES = 1024 * 1024;
/** A field other than `events` (a version, a serial number, a time): anything longer is not one of ours. */
const MAX_FIELD_BYTES = 4096;

export type StreamProblem = 'malformed' | 'event-too-large';

const enum At {
  Start,
  Key,
  KeyOrEnd,
  Colon,
  Value,
  ArrayOpen,
  ElementOrEnd,
  Element,
  AfterElement,
  AfterValue,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Where a value ends: a string, an object or an array at its closing byte, a number or word before a delimiter. */
class ValueScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;
  private started = false;

  /** The index just past the value's end in `chunk` from `from`, or -1 when it goes on into the next chunk. */
  scan(chunk: Buffer, from: number): number {
    let i = from;
    if (!this.started) {
      this.started = true;
      const first = chunk[i] as number;
      if (first === QUOTE) this.inString = true;
      else if (first === 0x7b || first === 0x5b) this.depth = 1;
      else this.scalar = true;
      i++;
    }
    for (; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.depth === 0) return i + 1;
        }
      } else if (this.scalar) {
        if (this.scalarEnds(byte)) return i;
      } else if (byte === QUOTE) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if ((byte === 0x7d || byte === 0x5d) && --this.depth === 0) return i + 1;
    }
    return -1;
  }

  private scalarEnds(byte: number): boolean {
    return byte === 0x2c || byte === 0x5d || byte === 0x7d || isSpace(byte);
  }
}

/**
 * Fed a copy's bytes chunk by chunk: `fields` gets every top-level field but `events`, `onEvent` each
 * element of `events` parsed (before the fields after it). `problem` says why the copy is not one.
 */
export class StoredCopyStream {
  readonly fields = new Map<string, unknown>();
  problem: StreamProblem | undefined;
  private at = At.Start;
  private key = '';
  private scan: ValueScan | undefined;
  private parts: Buffer[] = [];
  private length = 0;

  constructor(private readonly onEvent: (raw: unknown) => void) {}

  get complete(): boolean {
    return this.problem === undefined && this.at === At.Done;
  }

  write(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && this.problem === undefined) {
      if (this.scan !== undefined) {
        i = this.continueValue(chunk, i);
        continue;
      }
      const byte = chunk[i] as number;
      if (isSpace(byte)) {
        i++;
        continue;
      }
      switch (this.at) {
        case At.Start:
          this.expect(byte === 0x7b, At.KeyOrEnd);
          i++;
          break;
        case At.KeyOrEnd:
        case At.Key:
          if (byte === 0x7d && this.at === At.KeyOrEnd) {
            this.at = At.Done;
            i++;
          } else if (byte === QUOTE) this.startValue();
          else this.problem = 'malformed';
          break;
        case At.Colon:
          this.expect(byte === 0x3a, this.key === 'events' ? At.ArrayOpen : At.Value);
          i++;
          break;
        case At.Value:
          this.startValue();
          break;
        case At.ArrayOpen:
          this.expect(byte === 0x5b, At.ElementOrEnd);
          i++;
          break;
        case At.ElementOrEnd:
        case At.Element:
          if (byte === 0x5d && this.at === At.ElementOrEnd) {
            this.fields.set('events', true);
            this.at = At.AfterValue;
            i++;
          } else this.startValue();
          break;
        case At.AfterElement:
          this.expect(byte === 0x2c || byte === 0x5d, byte === 0x2c ? At.Element : At.AfterValue);
          if (byte === 0x5d) this.fields.set('events', true);
          i++;
          break;
        case At.AfterValue:
          this.expect(byte === 0x2c || byte === 0x7d, byte === 0x2c ? At.Key : At.Done);
          i++;
          break;
        case At.Done:
          this.problem = 'malformed';
      }
    }
  }

  end(): void {
    if (this.at !== At.Done) this.problem ??= 'malformed';
  }

  private expect(ok: boolean, next: At): void {
    if (ok) this.at = next;
    else this.problem = 'malformed';
  }

  private startValue(): void {
    this.scan = new ValueScan();
    this.parts = [];
    this.length = 0;
  }

  private continueValue(chunk: Buffer, from: number): number {
    const scan = this.scan as ValueScan;
    const end = scan.scan(chunk, from);
    const taken = chunk.subarray(from, end < 0 ? chunk.length : end);
    this.length += taken.length;
    const element = this.at === At.Element || this.at === At.ElementOrEnd;
    if (this.length > (element ? MAX_STORED_EVENT_BYTES : MAX_FIELD_BYTES)) {
      this.problem = element ? 'event-too-large' : 'malformed';
      return chunk.length;
    }
    this.parts.push(taken);
    if (end < 0) return chunk.length;
    this.scan = undefined;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(this.parts, this.length).toString('utf8'));
    } catch {
      this.problem = 'malformed';
      return chunk.length;
    }
    this.parts = [];
    this.finishValue(value);
    return end;
  }

  private finishValue(value: unknown): void {
    switch (this.at) {
      case At.Key:
      case At.KeyOrEnd:
        this.key = value as string;
        // A field twice is read by JSON.parse as its last, by a stream as its first: neither is ours.
        if (this.fields.has(this.key)) this.problem = 'malformed';
        this.at = At.Colon;
        break;
      case At.Value:
        this.fields.set(this.key, value);
        this.at = At.AfterValue;
        break;
      default:
        this.onEvent(value);
        this.at = At.AfterElement;
    }
  }
}
