// Every field of every message is checked on receipt: a message that is valid
// except for one field (missing, of the wrong type, or out of range) is
// refused, and each value the protocol allows is accepted.
import * as assert from 'node:assert/strict';
import { PAGE_STRING_KEYS, isHostMessage, isPageMessage, type EventView, type PageStrings } from '../../../src/extension/details/protocol';
import { buildEventView } from '../../../src/extension/details/viewModel';
import { machineCreated, T_MS } from './fixtures';

type Json = Record<string, unknown>;

const strings = Object.fromEntries(PAGE_STRING_KEYS.map((k) => [k, k])) as unknown as PageStrings;
const view: EventView = buildEventView(machineCreated(), { title: 't', locale: 'en', nowMs: T_MS, outOfRange: '?' });
const state = { version: 1, serialNumber: 'MX-4711-A0023', raw: machineCreated().raw };
const link = view.links[0] as unknown as Json;
const target = { url: 'https://x.test/', openable: true, blocked: null };

/** `base` with `key` set to `value`, or removed when `value` is undefined. */
function withField(base: Json, key: string, value: unknown): Json {
  const others = Object.entries(base).filter(([name]) => name !== key);
  return Object.fromEntries(value === undefined ? others : [...others, [key, value]]);
}

function show(event: Json): Json {
  return { type: 'show', event, state, strings };
}
function withTime(key: string, value: unknown): Json {
  return show({ ...view, time: withField(view.time as unknown as Json, key, value) });
}
function withLink(key: string, value: unknown): Json {
  return show({ ...view, links: [withField(link, key, value)] });
}
function withTarget(key: string, value: unknown): Json {
  return { type: 'expanded', seq: 1, linkId: 0, target: withField(target, key, value) };
}

describe('details: every field of every message is checked', () => {
  describe('host → page: refused when one field is wrong', () => {
    const refused: readonly [string, Json][] = [
      ['expanded without seq', { type: 'expanded', linkId: 0, target }],
      ['expanded without linkId', { type: 'expanded', seq: 1, target }],
      ['expanded without target', { type: 'expanded', seq: 1, linkId: 0 }],
      ['expanded with a null target', { type: 'expanded', seq: 1, linkId: 0, target: null }],
      ['a target whose url is a number', withTarget('url', 42)],
      ['a target whose openable is a string', withTarget('openable', 'true')],
      ['a target without blocked', withTarget('blocked', undefined)],
      ['a target blocked for an empty reason', withTarget('blocked', '')],
      ['fetched without seq', { type: 'fetched', linkId: 0, ok: true, message: 'm' }],
      ['fetched without linkId', { type: 'fetched', seq: 1, ok: true, message: 'm' }],
      ['fetched with ok as a string', { type: 'fetched', seq: 1, linkId: 0, ok: 'yes', message: 'm' }],
      ['fetched without a message', { type: 'fetched', seq: 1, linkId: 0, ok: true }],
      ['status without a message', { type: 'status' }],
      ['status with a numeric message', { type: 'status', message: 1 }],
      ['show without an event', { type: 'show', state, strings }],
      ['show without state', { type: 'show', event: view, strings }],
      ['show with state of another version', { type: 'show', event: view, state: { ...state, version: 2 }, strings }],
      ['show with state without a serial number', { type: 'show', event: view, state: { version: 1, raw: {} }, strings }],
      ['show with state without the raw event', { type: 'show', event: view, state: { version: 1, serialNumber: 'S' }, strings }],
      ['show without strings', { type: 'show', event: view, state }],
      ['show with strings that are not an object', { type: 'show', event: view, state, strings: 'x' }],
      ...(['title', 'type', 'message', 'serialNumber', 'assetId', 'time', 'links', 'extra', 'locale'] as const).map(
        (key): [string, Json] => [`an event view whose ${key} is a number`, show({ ...view, [key]: 42 })],
      ),
      ['an event view whose time is null', show({ ...view, time: null })],
      ['an event view whose extra field is null', show({ ...view, extra: [null] })],
      ['an event view whose extra field has no name', show({ ...view, extra: [{ value: 'v' }] })],
      ['an event view whose extra field value is a number', show({ ...view, extra: [{ name: 'n', value: 1 }] })],
      ...(['local', 'utcIso', 'relative', 'raw'] as const).map((key): [string, Json] => [
        `a time whose ${key} is missing`,
        withTime(key, undefined),
      ]),
      ['a time whose epochMs is text', withTime('epochMs', '1')],
      ['a time whose epochMs is infinite', withTime('epochMs', Infinity)],
      ['a time whose epochMs is NaN', withTime('epochMs', NaN)],
      ['a time in hours', withTime('unit', 'hours')],
      ['a time without a unit', withTime('unit', undefined)],
      ['a time whose detected is text', withTime('detected', 'true')],
      ...(
        [
          ['id', -1],
          ['relation', 1],
          ['fields', {}],
          ['fields', [null]],
          ['extra', [{ name: 'n', value: 1 }]],
          ['deprecated', 'no'],
          ['deprecation', 1],
          ['deprecationOpenable', 'no'],
          ['templated', 'no'],
          ['variables', [1]],
          ['values', { a: 1 }],
          ['target', { url: null, openable: 'no', blocked: null }],
        ] as const
      ).map(([key, value]): [string, Json] => [`a link whose ${key} is ${JSON.stringify(value)}`, withLink(key, value)]),
    ];
    for (const [name, message] of refused) {
      it(`refuses ${name}`, () => {
        assert.equal(isHostMessage(message), false);
      });
    }
  });

  describe('host → page: accepted values', () => {
    const accepted: readonly [string, Json][] = [
      ...(['no-href', 'malformed', 'scheme'] as const).map((reason): [string, Json] => [
        `a target blocked for ${reason}, without a url`,
        { type: 'expanded', seq: 0, linkId: 0, target: { url: null, openable: false, blocked: reason } },
      ]),
      ['an event view without an assetId', show({ ...view, assetId: null })],
      ['a time in seconds', withTime('unit', 'seconds')],
      ['a time in milliseconds, set by the user', show({ ...view, time: { ...view.time, unit: 'milliseconds', detected: false } })],
      ['a link with a deprecation', withLink('deprecation', 'https://x.test/why')],
      ['a link field that was not sent', withLink('fields', [{ name: 'href', value: null }])],
      ['fetched ok', { type: 'fetched', seq: 0, linkId: 0, ok: true, message: '' }],
    ];
    for (const [name, message] of accepted) {
      it(`accepts ${name}`, () => {
        assert.equal(isHostMessage(message), true);
      });
    }
  });

  describe('page → host', () => {
    const variables64 = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`v${i}`, '']));
    const accepted: readonly [string, Json][] = [
      ['exactly 64 variables', { type: 'expand', seq: 1, linkId: 0, variables: variables64 }],
      ['a variable of exactly 4096 characters', { type: 'open', linkId: 0, variables: { v: 'x'.repeat(4096) } }],
      ...(['json', 'assetId', 'serialNumber'] as const).map((what): [string, Json] => [`copy of ${what}`, { type: 'copy', what }]),
      ['copy of a json with a link and variables', { type: 'copy', what: 'json', linkId: 0, variables: {} }],
      ['copy of a url with a link and no variables', { type: 'copy', what: 'url', linkId: 0 }],
    ];
    for (const [name, message] of accepted) {
      it(`accepts ${name}`, () => {
        assert.equal(isPageMessage(message), true);
      });
    }

    const refused: readonly [string, Json][] = [
      ['a variable of 4097 characters', { type: 'open', linkId: 0, variables: { v: 'x'.repeat(4097) } }],
      ['expand without seq', { type: 'expand', linkId: 0, variables: {} }],
      ['expand without linkId', { type: 'expand', seq: 1, variables: {} }],
      ['expand without variables', { type: 'expand', seq: 1, linkId: 0 }],
      ['fetch with a negative seq', { type: 'fetch', seq: -1, linkId: 0, variables: {} }],
      ['fetch without linkId', { type: 'fetch', seq: 1, variables: {} }],
      ['fetch without variables', { type: 'fetch', seq: 1, linkId: 0 }],
      ['open without linkId', { type: 'open', variables: {} }],
      ['open without variables', { type: 'open', linkId: 0 }],
      ['open with variables that are not an object', { type: 'open', linkId: 0, variables: 'v=1' }],
      ['openDeprecation without linkId', { type: 'open-deprecation' }],
      ['openDeprecation with a fractional linkId', { type: 'open-deprecation', linkId: 0.5 }],
      ['copy without what', { type: 'copy' }],
      ['copy of an assetId with a negative linkId', { type: 'copy', what: 'assetId', linkId: -1 }],
      ['copy of json with variables of the wrong type', { type: 'copy', what: 'json', variables: { a: 1 } }],
      ['copy of a url with a linkId of the wrong type', { type: 'copy', what: 'url', linkId: '0' }],
      [
        'a read-back of what the page rendered (no longer part of the protocol)',
        { type: 'rendered', title: 'T', message: 'm', images: 0, links: 0 },
      ],
      ['a message whose type is the wrong case', { type: 'Ready' }],
    ];
    for (const [name, message] of refused) {
      it(`refuses ${name}`, () => {
        assert.equal(isPageMessage(message), false);
      });
    }
  });
});
