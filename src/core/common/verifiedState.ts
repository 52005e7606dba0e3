// VS Code applies a globalState update to the extension host's copy at once,
// then replaces that whole copy (every key of the extension) with each state
// the storage echoes back (microsoft/vscode#137132). When the echo of an
// earlier write lands between an update and its send, the update is gone: an
// environment's record, the recent list, what was seen or a watch's outcome
// could be lost so. Every global-state write of ours goes through this one
// mechanism (the watch list's included):
//
// - Writes of one key are ordered: one at a time, each after the previous one
//   resolved, and get() answers the newest value this window meant while they
//   are under way, so a read-change-write of the same key (three look-ups at
//   once adding to Recent) builds on the one before it instead of on a copy
//   the store has not caught up with.
// - After a write, the key is read back and checked against the newest value
//   this window meant, not against the write just made: another write of this
//   window is the usual reason the two differ, and writing the older one back
//   would undo it.
// - Read back as an older copy of ours (a value this window wrote, or the one
//   it found before): VS Code dropped the write, so the newest value is
//   written again (at most MAX_STATE_WRITES times in all).
// - Read back as anything else: another window wrote it after us. Its value is
//   newer than everything this window meant so far, which is not written over
//   it; a write this window starts after that builds on it (through get()).

/** The slice of vscode.Memento the stores use. */
export interface StateStore {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Writes of one value while the state keeps dropping it; a value that other windows keep changing is theirs after that. */
export const MAX_STATE_WRITES = 3;

/** What the store keeps is JSON: values are compared in that form (undefined and a missing key are both `undefined`). */
type Json = string | undefined;
// JSON.stringify(undefined) is undefined, which its declared type does not say.
const asJson = (value: unknown): Json => JSON.stringify(value);

/** The writes of one key under way in this window. */
interface KeyWrites {
  /** The newest value this window meant, as JSON (what get() answers while writes are under way). */
  newest: Json;
  /** Bumped by each update(). */
  version: number;
  /** Updates up to this version were overtaken by another window's value: not written. */
  overtaken: number;
  /** Values this key had in this window since these writes began: ours, and the one found before them. */
  readonly ours: Set<Json>;
  /** The newest value written by these writes that read back as written. */
  held: Json | null;
  /** The last write's end: the next one starts after it. */
  tail: Promise<void>;
  /** Updates not yet resolved: the entry is forgotten at 0. */
  pending: number;
}

/** `state` whose writes of one key never undo each other and whose update() holds against VS Code's older copies (see above). */
export function verifiedState(state: StateStore, log?: (message: string) => void): StateStore {
  const keys = new Map<string, KeyWrites>();
  const stored = (key: string): Json => asJson(state.get<unknown>(key));

  /** A value this window never had: another window's, newer than every update of ours so far, which it overtakes. */
  function overtaken(key: string, writes: KeyWrites, value: Json): void {
    writes.overtaken = writes.version;
    writes.ours.add(value);
    log?.(`Global state: another window changed ${key} meanwhile; its value stays.`);
  }

  /** Writes the newest value of `key` unless another window's value overtook update `version`; resolves once it holds (or gave up). */
  async function settle(key: string, writes: KeyWrites, version: number): Promise<void> {
    let made = 0;
    for (;;) {
      if (version <= writes.overtaken) return;
      const now = stored(key);
      if (!writes.ours.has(now)) {
        overtaken(key, writes, now);
        return;
      }
      // Written by an earlier update of this queue and held.
      if (now === writes.newest && writes.held === now) return;
      if (made === MAX_STATE_WRITES) return;
      if (made > 0) log?.(`Global state lost a write of ${key} to an older copy of it: writing it again.`);
      const target = writes.newest;
      writes.ours.add(target);
      await state.update(key, target === undefined ? undefined : JSON.parse(target));
      made += 1;
      const after = stored(key);
      if (after === target) {
        // Held. A newer value this window meant meanwhile is its own update's to write.
        writes.held = target;
        return;
      }
      writes.held = null;
    }
  }

  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
    get<T>(key: string): T | undefined {
      const writes = keys.get(key);
      if (writes === undefined || writes.version <= writes.overtaken) return state.get<T>(key);
      return writes.newest === undefined ? undefined : (JSON.parse(writes.newest) as T);
    },
    update(key: string, value: unknown): Promise<void> {
      let writes = keys.get(key);
      if (writes === undefined) {
        const found = stored(key);
        writes = { newest: found, version: 0, overtaken: 0, ours: new Set([found]), held: null, tail: Promise.resolve(), pending: 0 };
        keys.set(key, writes);
      }
      const own = writes;
      own.newest = asJson(value);
      own.version += 1;
      own.pending += 1;
      const version = own.version;
      const done = own.tail.then(() => settle(key, own, version));
      own.tail = done.catch(() => undefined);
      return done.finally(() => {
        own.pending -= 1;
        if (own.pending === 0 && keys.get(key) === own) keys.delete(key);
      });
    },
  };
}
