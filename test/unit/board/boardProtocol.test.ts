// The board's message protocol, validated on both sides: what the host posts
// (rows carry server text and are bounded), what the page may ask (machines by
// serial number, a PNG that is a data URL of a PNG, nothing unbounded), the
// state a restored panel starts from, and the page's bundle size.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { boardPageStrings } from '../../../src/extension/board/boardStrings';
import {
  isHostMessage,
  isPageMessage,
  isPersistedState,
  persistedState,
  MAX_ROWS,
  type HostMessage,
  type PageMessage,
} from '../../../src/extension/board/protocol';
import { plainLocalize } from '../../../src/core/common/localize';
import { MAX_POINTS } from '../../../src/core/domain/board/boardRows';
import { lineRows } from '../../support/board/boardFixtures';

const show = (overrides: Record<string, unknown> = {}, row: Record<string, unknown> = {}): unknown => ({
  type: 'show',
  board: {
    title: 'Board',
    set: { kind: 'pinned' },
    session: 'signed-in',
    rows: [{ ...lineRows()[0], ...row }],
    held: 0,
    beyond: 0,
    locale: 'en',
    nowMs: 1,
    usual: null,
    ...overrides,
  },
  strings: boardPageStrings(plainLocalize),
});

const LOOK = { background: '#000', foreground: '#fff', grid: '#888', states: Object.fromEntries(lineRows().map((r) => [r.state, '#123'])) };

describe('the board protocol', () => {
  it('accepts what the host posts, and nothing malformed or unbounded', () => {
    const ok: HostMessage = { type: 'status', message: 'Copied' };
    assert.ok(isHostMessage(ok));
    assert.ok(isHostMessage(show()));
    assert.ok(isHostMessage(show({ rows: lineRows() })));
    assert.ok(!isHostMessage(show({ session: 'admin' })));
    assert.ok(!isHostMessage(show({ set: { kind: 'file', uri: '' } })));
    assert.ok(!isHostMessage(show({}, { state: 'great' })));
    assert.ok(!isHostMessage(show({}, { serialNumber: '' })));
    assert.ok(!isHostMessage(show({}, { eventCount: -1 })));
    assert.ok(!isHostMessage(show({}, { failingPoint: 7 })), 'a failing point past the points');
    assert.ok(!isHostMessage(show({}, { points: Array(MAX_POINTS + 1).fill({ at: 1, state: 'failed', type: 'X', key: 'k' }) })));
    assert.ok(!isHostMessage(show({}, { points: [{ at: Number.NaN, state: 'failed', type: 'X', key: 'k' }] })));
    assert.ok(!isHostMessage(show({ rows: Array(MAX_ROWS + 1).fill(lineRows()[0]) })));
    assert.ok(!isHostMessage({ ...(show() as object), strings: { ...boardPageStrings(plainLocalize), signIn: 3 } }));
    assert.ok(!isHostMessage({ type: 'eval', code: 'x' }));
  });

  it('accepts what the page may ask, and refuses anything else', () => {
    const good: PageMessage[] = [
      { type: 'ready' },
      { type: 'open-machine', serialNumber: 'MX-4711-A0023' },
      { type: 'open-event', serialNumber: 'MX-4711-A0023', key: 'k1' },
      { type: 'reveal', serialNumber: 'MX-4711-A0023' },
      { type: 'sign-in' },
      { type: 'load-held' },
      { type: 'export-table', format: 'csv', serialNumbers: ['MX-4711-A0023'] },
      { type: 'export-table', format: 'markdown', serialNumbers: [] },
      { type: 'export-svg', serialNumbers: ['A'], from: 1, to: 2, aligned: true, look: LOOK as never },
      { type: 'export-png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', lanes: 1500, of: 10_000 },
    ];
    for (const message of good) assert.ok(isPageMessage(message), JSON.stringify(message));
    const bad: unknown[] = [
      { type: 'open-machine', serialNumber: '' },
      { type: 'open-machine', serialNumber: 'x'.repeat(201) },
      { type: 'open-event', serialNumber: 'A' },
      { type: 'export-table', format: 'xlsx', serialNumbers: [] },
      { type: 'export-table', format: 'csv', serialNumbers: Array(MAX_ROWS + 1).fill('A') },
      { type: 'export-svg', serialNumbers: [], from: 2, to: 1, aligned: false, look: LOOK },
      { type: 'export-svg', serialNumbers: [], from: 1, to: 2, aligned: 'yes', look: LOOK },
      { type: 'export-svg', serialNumbers: [], from: 1, to: 2, aligned: false, look: { ...LOOK, states: {} } },
      { type: 'export-png', dataUrl: 'data:text/html;base64,PHNjcmlwdD4=' },
      { type: 'export-png', dataUrl: 'https://example.invalid/x.png', lanes: 1, of: 1 },
      { type: 'export-png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', lanes: 2, of: 1 },
      // The page reports nothing about its own rendering (the tests read its DOM): a report is an unknown message.
      { type: 'rendered', rows: 1, shown: 1, firstShown: ['A'], summary: 's', lanesDrawn: 1, renderMs: 3.5, reason: 'filter' },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
      null,
      'ready',
    ];
    for (const message of bad) assert.ok(!isPageMessage(message), (JSON.stringify(message) as string | undefined)?.slice(0, 200));
  });

  it('restores only a state it wrote: a set, a sort and a filter', () => {
    assert.ok(
      isPersistedState({
        version: 1,
        set: { kind: 'file', uri: 'file:///w/config/line3.yaml' },
        sort: { column: 'state', descending: true },
        filter: { states: ['failed'], text: 'mx' },
      }),
    );
    assert.ok(
      !isPersistedState({
        version: 2,
        set: { kind: 'pinned' },
        sort: { column: 'state', descending: true },
        filter: { states: [], text: '' },
      }),
    );
    assert.ok(
      !isPersistedState({
        version: 1,
        set: { kind: 'pinned' },
        sort: { column: 'password', descending: true },
        filter: { states: [], text: '' },
      }),
    );
    assert.ok(
      !isPersistedState({
        version: 1,
        set: { kind: 'serials', serialNumbers: [42] },
        sort: { column: 'state', descending: true },
        filter: { states: [], text: '' },
      }),
    );
  });

  it('a panel kept with the older state names is restored with its filter', () => {
    const kept = {
      version: 1,
      set: { kind: 'pinned' },
      sort: { column: 'state', descending: false },
      filter: { states: ['inProgress', 'noEvents', 'notLoaded', 'failed'], text: '' },
    };
    assert.deepEqual(persistedState(kept)?.filter.states, ['in-progress', 'no-events', 'not-loaded', 'failed']);
    assert.equal(persistedState({ ...kept, filter: { states: ['inprogress'], text: '' } }), undefined, 'a name that was never a state');
  });

  it('keeps the page script under 150 KB minified', async function () {
    this.timeout(30_000);
    const root = join(__dirname, '..', '..', '..', '..');
    const result = await esbuild.build({
      entryPoints: [join(root, 'src', 'extension', 'board', 'page', 'main.ts')],
      bundle: true,
      minify: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
    });
    const bytes = result.outputFiles[0]?.contents.length ?? 0;
    console.log(`      board page script, minified: ${(bytes / 1024).toFixed(1)} KB`);
    assert.ok(bytes > 0 && bytes < 150 * 1024, `${bytes} bytes`);
  });
});
