// Which links the details page may have opened, fetched or copied. The page
// names links by id; the policy recomputes every target from the event the host
// holds, and lets only http(s) go to the browser or the API client.
import * as assert from 'node:assert/strict';
import type { OnboardingEvent } from '../../../src/core/client/model';
import {
  copyableUrl,
  deprecationDecision,
  fetchDecision,
  linkTarget,
  openDecision,
  type LinkRequest,
} from '../../../src/extension/details/linkPolicy';
import { API_BASE, ASSET_ID, event, machineCreated, T_MS } from './fixtures';

/** Links in flattened order: ids 0… as the page numbers them. */
function withLinks(links: Record<string, unknown>): OnboardingEvent {
  return event({ type: 'T', message: 'm', timestamp: T_MS, _links: links });
}

const signedIn = (e: OnboardingEvent): LinkRequest => ({ event: e, apiBaseUrl: API_BASE });
const signedOut = (e: OnboardingEvent): LinkRequest => ({ event: e, apiBaseUrl: undefined });

describe('details: link policy', () => {
  // machineCreated(): 0 = machine (absolute https), 1 = search (templated, relative), 2 = legacy (deprecated).
  const machineUrl = `${API_BASE}/public/api/machines/${ASSET_ID}`;

  it('allows opening and fetching an absolute https link, with the URL recomputed from the event', () => {
    const request = signedIn(machineCreated());
    assert.deepEqual(openDecision(request, 0, {}), { kind: 'allow', url: machineUrl, host: 'api.example.test' });
    assert.deepEqual(fetchDecision(request, 0, {}), { kind: 'allow', url: machineUrl, host: 'api.example.test' });
    assert.equal(copyableUrl(request, 0), machineUrl);
  });

  it("expands a templated link with the page's values and resolves it against the signed-in API", () => {
    const request = signedIn(machineCreated());
    const url = `${API_BASE}/public/api/machines?serialNumber=MX-1&size=5`;
    assert.deepEqual(openDecision(request, 1, { serialNumber: 'MX-1', page: '', size: '5' }), {
      kind: 'allow',
      url,
      host: 'api.example.test',
    });
    assert.deepEqual(linkTarget(request, 1, { serialNumber: 'MX-1', size: '5' }), { url, openable: true, blocked: null });
  });

  it('refuses a relative link while signed out (nothing to resolve it against), showing it as text', () => {
    const request = signedOut(machineCreated());
    assert.deepEqual(openDecision(request, 1, {}), { kind: 'refuse', shown: '/public/api/machines', reason: 'scheme' });
    assert.deepEqual(fetchDecision(request, 1, {}), { kind: 'refuse', shown: '/public/api/machines', reason: 'scheme' });
  });

  const unsafe: readonly [string, string][] = [
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['file:', 'file:///etc/passwd'],
    ['command:', 'command:workbench.action.terminal.new'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vscode:', 'vscode://settings/anything'],
  ];
  for (const [scheme, href] of unsafe) {
    it(`refuses to open or fetch a ${scheme} link, and shows it instead`, () => {
      const request = signedIn(withLinks({ bad: { href } }));
      const opened = openDecision(request, 0, {});
      assert.ok(opened?.kind === 'refuse', `${href} is refused`);
      assert.equal(fetchDecision(request, 0, {}).kind, 'refuse');
      // Copying is only text on the clipboard: the user sees what they copy.
      assert.equal(copyableUrl(request, 0), opened.shown);
    });
  }

  it('refuses a malformed or missing href (shown as sent, or nothing)', () => {
    const request = signedIn(withLinks({ broken: { href: 'http://[::1' }, empty: { title: 'no href' } }));
    assert.deepEqual(openDecision(request, 0, {}), { kind: 'refuse', shown: 'http://[::1', reason: 'scheme' });
    assert.deepEqual(openDecision(request, 1, {}), { kind: 'refuse', shown: null, reason: 'scheme' });
    assert.deepEqual(fetchDecision(request, 1, {}), { kind: 'refuse', shown: null, reason: 'scheme' });
    assert.equal(copyableUrl(request, 1), undefined);
  });

  it('does nothing for a link id the event does not have, except that a fetch of it counts as refused', () => {
    const request = signedIn(machineCreated());
    for (const id of [3, 99, Number.MAX_SAFE_INTEGER]) {
      assert.equal(openDecision(request, id, {}), undefined);
      assert.equal(deprecationDecision(request, id), undefined);
      assert.equal(linkTarget(request, id, {}), undefined);
      assert.equal(copyableUrl(request, id), undefined);
      assert.deepEqual(fetchDecision(request, id, {}), { kind: 'refuse', shown: null, reason: 'scheme' });
    }
    assert.equal(copyableUrl(request, undefined), undefined);
  });

  it('opens a deprecation explanation only when it is an http(s) URL', () => {
    const request = signedIn(machineCreated());
    assert.deepEqual(deprecationDecision(request, 2), {
      kind: 'allow',
      url: 'https://api.example.test/docs/deprecations#legacy',
      host: 'api.example.test',
    });
    assert.equal(deprecationDecision(request, 0), undefined, 'a link that is not deprecated has nothing to open');
    const textOnly = signedIn(withLinks({ old: { href: 'https://x.test', deprecation: 'javascript:alert(1)' } }));
    assert.deepEqual(deprecationDecision(textOnly, 0), { kind: 'refuse', shown: 'javascript:alert(1)', reason: 'scheme' });
  });
});
