import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environment, SessionState } from '../../../src/core/domain/session/sessionState';
import { FileResultStore } from '../../../src/core/eventsCache/fileResultStore';
import { forgetResultsOnSignOut, resultScope } from '../../../src/extension/workbench/resultScope';
import { event, result, SERIAL } from '../machines/fixtures';

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'));
}

describe('Stored results (offline copy)', () => {
  let dir: string;
  let scope: string | undefined;
  let errors: string[];
  let store: FileResultStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oe-store-'));
    scope = 'env-1';
    errors = [];
    store = new FileResultStore({ directory: dir, scope: () => scope, onError: (message) => errors.push(message) });
  });

  it('reads back what it saved, validated again and newest first, with its fetch time', async () => {
    const saved = result([event({ minute: 1, type: 'B' }), event({ minute: 0, type: 'A' })], SERIAL, 1234);
    store.save(saved);
    assert.deepEqual(
      (await store.load(SERIAL))?.events.map((e) => e.type),
      ['B', 'A'],
      'readable before the write finished',
    );
    await store.flush();
    const fresh = new FileResultStore({ directory: dir, scope: () => scope });
    const loaded = await fresh.load(SERIAL);
    assert.equal(loaded?.fetchedAt, 1234);
    assert.deepEqual(
      loaded.events.map((e) => e.key),
      saved.events.map((e) => e.key),
    );
  });

  it('keeps environments apart, and stores nothing while signed out', async () => {
    store.save(result([event({ minute: 0 })]));
    await store.flush();
    scope = 'env-2';
    assert.equal(await store.load(SERIAL), undefined);
    scope = undefined;
    store.save(result([event({ minute: 0 })]));
    await store.flush();
    assert.equal(files(dir).length, 1);
  });

  it('a link planted at a stored copy is neither read nor written through: the file it points to stays as it was', async () => {
    store.save(result([event({ minute: 0 })]));
    await store.flush();
    const [name] = files(dir);
    assert.ok(name !== undefined);
    const copy = join(dir, name);
    const outside = join(mkdtempSync(join(tmpdir(), 'oe-outside-')), 'keys');
    writeFileSync(outside, readFileSync(copy));
    rmSync(copy);
    symlinkSync(outside, copy);
    const before = readFileSync(outside, 'utf8');
    const fresh = new FileResultStore({ directory: dir, scope: () => scope, onError: (message) => errors.push(message) });
    assert.equal(await fresh.load(SERIAL), undefined, 'a copy behind a link is not read');
    fresh.save(result([event({ minute: 1 }), event({ minute: 0 })]));
    await fresh.flush();
    assert.equal(readFileSync(outside, 'utf8'), before, 'the file behind the link is intact');
    assert.equal(errors.length, 2, errors.join('\n'));
  });

  it('names files by hashes, so a serial number cannot reach outside its directory', async () => {
    store.save(result([event({ minute: 0 }, '../../etc/passwd')], '../../etc/passwd'));
    await store.flush();
    for (const name of files(dir)) assert.match(name, /^[0-9a-f]{32}[/\\][0-9a-f]{32}\.json$/);
  });

  it('ignores a damaged or foreign file and reports it, instead of breaking the tree', async () => {
    store.save(result([event({ minute: 0 })]));
    await store.flush();
    const [file] = files(dir);
    assert.ok(file);
    writeFileSync(join(dir, file), '{ not json');
    assert.equal(await store.load(SERIAL), undefined);
    assert.equal(errors.length, 1);
    writeFileSync(join(dir, file), JSON.stringify({ version: 1, serialNumber: 'OTHER', fetchedAt: 1, truncated: false, events: [] }));
    assert.equal(await store.load(SERIAL), undefined);
  });

  it('drops stored events that no longer pass validation', async () => {
    store.save(result([event({ minute: 0 })]));
    await store.flush();
    const [file] = files(dir);
    assert.ok(file);
    const stored = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { events: unknown[] };
    stored.events.push({ type: 'X', message: 42, timestamp: 1 });
    writeFileSync(join(dir, file), JSON.stringify(stored));
    const loaded = await store.load(SERIAL);
    assert.equal(loaded?.events.length, 1);
    assert.equal(loaded.invalid.length, 1);
  });

  it("the scope is environment, API and user; signing out deletes that environment's results", async () => {
    const env: Environment = {
      id: 'id-1',
      name: 'Test',
      apiBaseUrl: 'http://127.0.0.1:1',
      authUrl: 'http://127.0.0.1:1/oauth',
      clientId: 'c',
      username: 'u',
    };
    assert.notEqual(
      resultScope({ kind: 'signed-in', environment: env }),
      resultScope({ kind: 'signed-in', environment: { ...env, apiBaseUrl: 'http://127.0.0.1:2' } }),
    );
    assert.equal(resultScope({ kind: 'credentials-rejected', environment: env }), undefined);

    let state: SessionState = { kind: 'signed-in', environment: env };
    const listeners: ((s: SessionState) => void)[] = [];
    const session = {
      get state() {
        return state;
      },
      onDidChangeState: (listener: (s: SessionState) => void) => {
        listeners.push(listener);
        return { dispose: () => undefined };
      },
      environments: () => [env],
      onDidChangeEnvironments: () => ({ dispose: () => undefined }),
    };
    scope = resultScope(state);
    store.save(result([event({ minute: 0 })]));
    await store.flush();
    forgetResultsOnSignOut(session, store);
    state = { kind: 'signed-out' };
    for (const listener of listeners) listener(state);
    await store.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(files(dir), []);
  });

  it('signing out of an environment that is not the active one (here or in another window) deletes its results too, and only its', async () => {
    const envA: Environment = {
      id: 'id-a',
      name: 'A',
      apiBaseUrl: 'http://127.0.0.1:1',
      authUrl: 'http://127.0.0.1:1/oauth',
      clientId: 'c',
      username: 'u',
    };
    const envB: Environment = { ...envA, id: 'id-b', name: 'B', apiBaseUrl: 'http://127.0.0.1:2' };
    let environments = [envA, envB];
    const changed: (() => void)[] = [];
    const session = {
      state: { kind: 'signed-in', environment: envA } as SessionState,
      onDidChangeState: () => ({ dispose: () => undefined }),
      environments: () => environments,
      onDidChangeEnvironments: (listener: () => void) => {
        changed.push(listener);
        return { dispose: () => undefined };
      },
    };
    scope = resultScope({ kind: 'signed-in', environment: envB });
    store.save(result([event({ minute: 0 })]));
    scope = resultScope({ kind: 'signed-in', environment: envA });
    store.save(result([event({ minute: 1 })]));
    await store.flush();
    assert.equal(files(dir).length, 2);
    forgetResultsOnSignOut(session, store);

    environments = [envA];
    for (const listener of changed) listener();
    await store.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(files(dir).length, 1, "B's results are gone");
    assert.equal((await store.load(SERIAL))?.events[0]?.time.epochMs !== undefined, true, "A's results are kept");
  });
});
