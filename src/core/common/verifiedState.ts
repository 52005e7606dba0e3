// VS Code replaces its copy of globalState with each state the storage echoes back, which can drop a
// write (microsoft/vscode#137132). So every write of ours is ordered per key, read back, and written
// again when an older copy of ours replaced it; another window's newer value is left alone.

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

interface KeyWrites {
  /** The newest value this window meant, as JSON (what get() answers while writes are under way). */
  newest: Json;
  version: number;
  /** Updates up to this version were overtaken by another window's value: not written. */
  overtaken: number;
  /** Values this key had in this window since these writes began: ours, and the one found before them. */
  readonly ours: Set<Json>;
  /** The newest value written by these writes that read back as written. */
  held: Json | null;
  tail: Promise<void>;
  /** Updates not yet resolved: the entry is forgotten at 0. */
  pending: number;
}

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
