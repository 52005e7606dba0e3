// Properties of the details page's link policy for any link a server may
// send and any values the page may fill in: what is allowed to open or be
// fetched is always http(s) with a host, and a relative link stays on the API.
import * as assert from 'node:assert/strict';
import { deprecationDecision, fetchDecision, openDecision, type LinkDecision } from '../../../src/extension/details/linkPolicy';
import { API_ORIGIN, hostileHref, variables } from '../../support/hostileHrefs';
import { fc, holds } from '../../support/properties';
import { event } from './fixtures';

function assertOpenable(decision: LinkDecision | undefined): void {
  if (decision?.kind !== 'allow') return;
  const url = new URL(decision.url);
  assert.ok(url.protocol === 'http:' || url.protocol === 'https:', `allowed ${decision.url}`);
  assert.notEqual(url.hostname, '', `allowed ${decision.url} without a host`);
}

describe('link policy: properties', () => {
  it('anything allowed to open or be fetched is http or https with a host, for any link, template values and sign-in state', () =>
    holds(
      fc.property(
        hostileHref,
        fc.boolean(),
        fc.option(hostileHref, { nil: undefined }),
        variables,
        fc.boolean(),
        fc.nat(3),
        (href, templated, deprecation, values, signedIn, linkId) => {
          const link = { href, templated, ...(deprecation !== undefined ? { deprecation } : {}) };
          const request = {
            event: event({ type: 'T', message: 'm', timestamp: 1, _links: { machine: link, other: [link, { href: 'https://x.test' }] } }),
            apiBaseUrl: signedIn ? `${API_ORIGIN}/base` : undefined,
          };
          assertOpenable(openDecision(request, linkId, values));
          assertOpenable(fetchDecision(request, linkId, values));
          assertOpenable(deprecationDecision(request, linkId));
        },
      ),
    ));

  it('a link without a scheme or host of its own stays on the API origin, whatever values fill its template', () =>
    holds(
      fc.property(
        fc.constantFrom('/m/{id}', 'm/{id}{?q}', '/public/api/machines{?serialNumber}', '/x{/segments*}', 'a/{+path}'),
        variables,
        (href, values) => {
          const request = {
            event: event({ type: 'T', message: 'm', timestamp: 1, _links: { machine: { href, templated: true } } }),
            apiBaseUrl: API_ORIGIN,
          };
          const decision = fetchDecision(request, 0, values);
          if (decision.kind === 'allow') assert.equal(new URL(decision.url).origin, API_ORIGIN, decision.url);
        },
      ),
    ));
});
