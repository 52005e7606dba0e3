import * as assert from 'node:assert/strict';
import type { HalLink } from '../../../src/core/client/model';
import { HAL_LINK_FIELDS } from '../../../src/extension/details/protocol';
import {
  buildEventView,
  flattenLinks,
  jsonText,
  linkById,
  resolveLinkTarget,
  templateVariables,
} from '../../../src/extension/details/viewModel';
import { API_BASE, ASSET_ID, event, machineCreated, SERIAL, T_MS } from './fixtures';

const options = {
  title: 'MACHINE_CREATED · MX-4711-A0023',
  locale: 'en-US',
  nowMs: T_MS + 3_600_000,
  apiBaseUrl: API_BASE,
  timeZone: 'UTC',
  outOfRange: 'out of range',
};

describe('details: view model', () => {
  it('shows type, message, serial number, asset id and every reading of the time', () => {
    const view = buildEventView(machineCreated(), options);
    assert.equal(view.type, 'MACHINE_CREATED');
    assert.equal(view.message, 'Machine asset created');
    assert.equal(view.serialNumber, SERIAL);
    assert.equal(view.assetId, ASSET_ID);
    assert.equal(view.time.utcIso, '2025-01-15T08:01:00.000Z');
    assert.equal(view.time.local, 'Jan 15, 2025, 8:01:00 AM UTC');
    assert.equal(view.time.relative, '1 hour ago');
    assert.equal(view.time.raw, '1,736,928,060,000');
    assert.equal(view.time.unit, 'milliseconds');
    assert.equal(view.time.detected, true);
  });

  it('reads a seconds timestamp as seconds and says so', () => {
    const view = buildEventView(event({ type: 'T', message: 'm', timestamp: T_MS / 1000 }), options);
    assert.equal(view.time.unit, 'seconds');
    assert.equal(view.time.utcIso, '2025-01-15T08:01:00.000Z');
  });

  it('keeps a null asset id for events that are not machine-created, and lists unknown event fields as JSON text', () => {
    const view = buildEventView(event({ type: 'T', message: 'm', timestamp: T_MS, extraField: { a: [1, '<b>'] } }), options);
    assert.equal(view.assetId, null);
    assert.deepEqual(view.extra, [{ name: 'extraField', value: '{"a":[1,"<b>"]}' }]);
    assert.deepEqual(view.links, []);
  });

  it('lists all nine HAL link fields for every link, in spec order, null when not sent', () => {
    const view = buildEventView(machineCreated(), options);
    assert.equal(view.links.length, 3);
    for (const link of view.links)
      assert.deepEqual(
        link.fields.map((f) => f.name),
        [...HAL_LINK_FIELDS],
      );
    const machine = view.links[0];
    assert.ok(machine);
    assert.equal(machine.relation, 'machine');
    assert.deepEqual(Object.fromEntries(machine.fields.map((f) => [f.name, f.value])), {
      href: `${API_BASE}/public/api/machines/${ASSET_ID}`,
      templated: null,
      type: 'application/hal+json',
      deprecation: null,
      name: ASSET_ID,
      profile: null,
      title: 'Machine',
      hreflang: null,
      seen: null,
    });
    assert.deepEqual(machine.target, { url: `${API_BASE}/public/api/machines/${ASSET_ID}`, openable: true, blocked: null });
  });

  it('marks a deprecated link with its deprecation text, and offers it for opening only when it is http(s)', () => {
    const legacy = buildEventView(machineCreated(), options).links[2];
    assert.ok(legacy);
    assert.equal(legacy.deprecated, true);
    assert.equal(legacy.deprecation, 'https://api.example.test/docs/deprecations#legacy');
    assert.equal(legacy.deprecationOpenable, true);
    const textOnly = buildEventView(
      event({ type: 'T', message: 'm', timestamp: 1, _links: { old: { href: 'https://x.test', deprecation: 'javascript:alert(1)' } } }),
      options,
    ).links[0];
    assert.ok(textOnly);
    assert.equal(textOnly.deprecated, true);
    assert.equal(textOnly.deprecation, 'javascript:alert(1)');
    assert.equal(textOnly.deprecationOpenable, false);
  });

  it('gives a templated link its variables and an expansion resolved against the API base', () => {
    const search = buildEventView(machineCreated(), options).links[1];
    assert.ok(search);
    assert.equal(search.templated, true);
    assert.deepEqual(search.variables, ['serialNumber', 'page', 'size']);
    assert.deepEqual(search.values, { serialNumber: SERIAL });
    assert.equal(search.target.url, `${API_BASE}/public/api/machines?serialNumber=${SERIAL}`);
    const flat = linkById(machineCreated(), 1);
    assert.ok(flat);
    assert.deepEqual(resolveLinkTarget(flat.link, { serialNumber: 'MX 1/2', page: '', size: '5' }, API_BASE), {
      url: `${API_BASE}/public/api/machines?serialNumber=MX%201%2F2&size=5`,
      openable: true,
      blocked: null,
    });
  });

  it('never treats a non-templated href as a template', () => {
    const link: HalLink = { href: 'https://x.test/{id}' };
    assert.equal(resolveLinkTarget(link, { id: '1' }, API_BASE).url, 'https://x.test/%7Bid%7D');
  });

  const unsafe: [string, string][] = [
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['command:', 'command:workbench.action.terminal.new'],
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vscode:', 'vscode://some.extension/run'],
    ['http without host', 'http:'],
  ];
  for (const [label, href] of unsafe) {
    it(`shows a ${label} link as text and never as openable`, () => {
      const target = resolveLinkTarget({ href }, {}, API_BASE);
      assert.equal(target.openable, false);
      assert.notEqual(target.blocked, null);
      assert.ok(target.url);
    });
  }

  it('shows a malformed href as text, blocked as malformed', () => {
    assert.deepEqual(resolveLinkTarget({ href: 'http://[::1' }, {}, API_BASE), {
      url: 'http://[::1',
      openable: false,
      blocked: 'malformed',
    });
  });

  it('cannot resolve a relative href while signed out (no API base), and says so', () => {
    assert.deepEqual(resolveLinkTarget({ href: '/public/api/machines/1' }, {}, undefined), {
      url: '/public/api/machines/1',
      openable: false,
      blocked: 'malformed',
    });
  });

  it('resolves relative hrefs under the API base path, as the core does when fetching', () => {
    assert.equal(resolveLinkTarget({ href: 'machines/1' }, {}, 'https://h.test/base').url, 'https://h.test/base/machines/1');
  });

  it('reports a link without href as having nothing to open', () => {
    assert.deepEqual(resolveLinkTarget({ title: 'no href' }, {}, API_BASE), { url: null, openable: false, blocked: 'no-href' });
  });

  it('numbers links across relations and arrays, in the order sent', () => {
    const e = event({
      type: 'T',
      message: 'm',
      timestamp: 1,
      _links: { a: [{ href: 'https://a/1' }, { href: 'https://a/2' }], b: { href: 'https://b' } },
    });
    assert.deepEqual(
      flattenLinks(e).map((f) => [f.relation, f.link.href]),
      [
        ['a', 'https://a/1'],
        ['a', 'https://a/2'],
        ['b', 'https://b'],
      ],
    );
    assert.equal(linkById(e, 3), undefined);
  });

  it('lists unknown link fields as JSON text', () => {
    const view = buildEventView(
      event({ type: 'T', message: 'm', timestamp: 1, _links: { a: { href: 'https://a', weird: { x: 1 } } } }),
      options,
    );
    assert.deepEqual(view.links[0]?.extra, [{ name: 'weird', value: '{"x":1}' }]);
    assert.equal(jsonText(undefined), 'undefined');
  });

  it('puts out-of-range instants in words instead of failing', () => {
    const view = buildEventView(event({ type: 'T', message: 'm', timestamp: 9_000_000_000_000_000 }), options);
    assert.equal(view.time.utcIso, 'out of range');
    assert.equal(view.time.local, 'out of range');
  });
});

describe('details: template forms start filled in from the event', () => {
  it('fills variables named assetId or serialNumber, and expands the target with them', () => {
    const e = event({
      type: 'MACHINE_CREATED',
      message: 'm',
      timestamp: T_MS,
      assetId: ASSET_ID,
      _links: { events: { href: '/machines/{assetId}/events{?serialNumber,from}', templated: true } },
    });
    const link = buildEventView(e, options).links[0];
    assert.ok(link);
    assert.deepEqual(link.values, { assetId: ASSET_ID, serialNumber: SERIAL });
    assert.equal(link.target.url, `${API_BASE}/machines/${ASSET_ID}/events?serialNumber=${SERIAL}`);
  });

  it('leaves a variable empty when the event has no such field', () => {
    const e = event({ type: 'T', message: 'm', timestamp: T_MS, _links: { a: { href: '/m/{assetId}', templated: true } } });
    assert.deepEqual(buildEventView(e, options).links[0]?.values, {});
  });
});

describe('details: RFC 6570 template variables', () => {
  const cases: [template: string, expected: string[]][] = [
    ['https://api.test/machines/{id}', ['id']],
    ['/machines{?serialNumber,page,size}', ['serialNumber', 'page', 'size']],
    ['/m/{+path}/x{#frag}', ['path', 'frag']],
    ['{.ext}{/seg*}{;params}{&more}', ['ext', 'seg', 'params', 'more']],
    ['/search{?q:3,list*}', ['q', 'list']],
    ['/{id}/again/{id}', ['id']],
    ['/{a.b}/{%20x}', ['a.b', '%20x']],
    ['/no/variables', []],
    ['/reserved/{=x}{!y}{@z}{|w}', []],
    ['/broken/{bad name}/{ok}/{.}/{-x}', ['ok']],
    ['/unclosed/{id', []],
  ];
  for (const [template, expected] of cases) {
    it(`reads ${JSON.stringify(expected)} from ${template}`, () => {
      assert.deepEqual(templateVariables(template), expected);
    });
  }
});
