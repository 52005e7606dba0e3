import * as assert from 'node:assert/strict';
import { PAGE_STRING_KEYS, isHostMessage, isPageMessage, type PageStrings } from '../../../src/extension/details/protocol';
import { buildEventView } from '../../../src/extension/details/viewModel';
import { machineCreated, T_MS } from './fixtures';

const strings = Object.fromEntries(PAGE_STRING_KEYS.map((k) => [k, k])) as unknown as PageStrings;
const view = buildEventView(machineCreated(), { title: 't', locale: 'en', nowMs: T_MS, outOfRange: '?' });
const state = { version: 1, serialNumber: 'MX-4711-A0023', raw: machineCreated().raw };

describe('details: message validation (host and page)', () => {
  describe('page → host', () => {
    const valid: unknown[] = [
      { type: 'ready' },
      { type: 'expand', seq: 1, linkId: 0, variables: { id: '42' } },
      { type: 'open', linkId: 2, variables: {} },
      { type: 'open-deprecation', linkId: 0 },
      { type: 'fetch', seq: 7, linkId: 0, variables: {} },
      { type: 'copy', what: 'json' },
      { type: 'copy', what: 'url', linkId: 1, variables: { q: 'x' } },
      { type: 'show-raw-json' },
      { type: 'export-events' },
    ];
    for (const message of valid) {
      it(`accepts ${JSON.stringify(message)}`, () => {
        assert.equal(isPageMessage(message), true);
      });
    }
    const invalid: unknown[] = [
      null,
      'ready',
      [],
      {},
      { type: 'eval', code: 'x' },
      { type: 'open', url: 'https://evil.test' },
      { type: 'open', linkId: -1, variables: {} },
      { type: 'open', linkId: 1.5, variables: {} },
      { type: 'open', linkId: '0', variables: {} },
      { type: 'expand', seq: 1, linkId: 0, variables: { id: 42 } },
      { type: 'expand', seq: 1, linkId: 0, variables: [] },
      { type: 'expand', seq: 1, linkId: 0, variables: { big: 'x'.repeat(5000) } },
      { type: 'fetch', linkId: 0, variables: {} },
      { type: 'copy', what: 'secrets' },
      { type: 'copy', what: 'url' },
      // The page reports nothing about its own rendering (the tests read its DOM): a report is an unknown message.
      { type: 'rendered', title: 'T', message: 'm', images: 0, links: 0 },
    ];
    for (const message of invalid) {
      it(`rejects ${message === undefined ? 'undefined' : JSON.stringify(message).slice(0, 80)}`, () => {
        assert.equal(isPageMessage(message), false);
      });
    }
    it('rejects more than 64 variables', () => {
      const variables = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`v${i}`, '']));
      assert.equal(isPageMessage({ type: 'expand', seq: 1, linkId: 0, variables }), false);
    });
  });

  describe('host → page', () => {
    it('accepts a show message built from a real event', () => {
      assert.equal(isHostMessage({ type: 'show', event: view, state, strings }), true);
    });
    it('accepts replies and status lines', () => {
      assert.equal(
        isHostMessage({ type: 'expanded', seq: 3, linkId: 1, target: { url: 'https://x', openable: true, blocked: null } }),
        true,
      );
      assert.equal(isHostMessage({ type: 'fetched', seq: 3, linkId: 1, ok: false, message: 'no' }), true);
      assert.equal(isHostMessage({ type: 'status', message: 'Copied' }), true);
    });
    it('rejects a host message that is not an object', () => {
      for (const value of [null, undefined, 'show', 3, ['show']]) assert.equal(isHostMessage(value), false, JSON.stringify(value));
    });
    it('rejects a show message missing a page string', () => {
      const partial = Object.fromEntries(Object.entries(strings).filter(([key]) => key !== 'copy'));
      assert.equal(isHostMessage({ type: 'show', event: view, state, strings: partial }), false);
    });
    it('rejects a show message whose view has a non-string field', () => {
      assert.equal(isHostMessage({ type: 'show', event: { ...view, message: 42 }, state, strings }), false);
      assert.equal(isHostMessage({ type: 'show', event: { ...view, links: [{ id: 0 }] }, state, strings }), false);
    });
    it('rejects an expansion with an unknown block reason', () => {
      assert.equal(isHostMessage({ type: 'expanded', seq: 3, linkId: 1, target: { url: 'x', openable: false, blocked: 'nope' } }), false);
    });
    it('rejects unknown message types', () => {
      assert.equal(isHostMessage({ type: 'html', html: '<b>' }), false);
    });
  });
});
