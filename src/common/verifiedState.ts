// VS Code applies a globalState update to the extension host's copy at once,
// then replaces that whole copy (every key of the extension) with each state
// the storage echoes back (microsoft/vscode#137132). When the echo of an
// earlier write lands between an update and its send, the update is gone: an
// environment's record, the recent list or what was seen could be lost so (the
// watch list met it first and re-applies its own changes, src/watch/watchList.ts).
// A write here reads its key back and writes again while it did not hold.

/** The slice of vscode.Memento the stores use. */
export interface StateStore {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Writes of one value while the state keeps dropping it; a value that other windows keep changing is theirs after that. */
export const MAX_STATE_WRITES = 3;

/** `state` whose update() holds: read back after writing and written again (at most three times in all) until it does. */
export function verifiedState(state: StateStore, log?: (message: string) => void): StateStore {
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
    get<T>(key: string): T | undefined {
      return state.get<T>(key);
    },
    async update(key: string, value: unknown): Promise<void> {
      // What the store keeps is JSON: compare in that form (undefined and a missing key both read back as undefined).
      const expected = JSON.stringify(value);
      for (let attempt = 1; ; attempt++) {
        await state.update(key, value);
        if (JSON.stringify(state.get<unknown>(key)) === expected || attempt === MAX_STATE_WRITES) return;
        log?.(`Global state lost a write of ${key} to an older copy of it: writing it again.`);
      }
    },
  };
}
