// GET {baseUrl}/public/api/machines/{assetId}: the target of the `machine`
// HAL link (spec §2.3), so tests can follow links from events.

import type { EndpointContext } from './context';
import { requireBearer } from './bearer';
import { BASE_URL_PLACEHOLDER } from './data';
import { errorReply, jsonReply, type Reply } from './reply';

export const MACHINES_PREFIX = '/public/api/machines/';

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** A resource built from the machine-created event carrying this assetId. */
function derivedMachine(context: EndpointContext, assetId: string): unknown {
  for (const [serialNumber, events] of Object.entries(context.data.machines)) {
    for (const event of events) {
      if (field(event, 'assetId') === assetId) {
        const link = field(field(event, '_links'), 'machine');
        const title = field(link, 'title');
        return {
          assetId,
          serialNumber,
          name: typeof title === 'string' ? title : serialNumber,
          _links: { self: { href: `${BASE_URL_PLACEHOLDER}${MACHINES_PREFIX}${assetId}` } },
        };
      }
    }
  }
  return undefined;
}

export function handleMachine(context: EndpointContext): Reply {
  const { request, baseUrl } = context;
  if (request.method !== 'GET') {
    return { ...errorReply(405, 'Use GET.', request.path, baseUrl), headers: { allow: 'GET' } };
  }
  const denied = requireBearer(context);
  if (denied !== undefined) {
    return denied;
  }
  const assetId = decodeURIComponent(request.path.slice(MACHINES_PREFIX.length));
  const assets = context.data.assets ?? {};
  const machine = Object.prototype.hasOwnProperty.call(assets, assetId) ? assets[assetId] : derivedMachine(context, assetId);
  if (machine === undefined) {
    return errorReply(404, `No machine with asset id ${assetId}.`, request.path, baseUrl);
  }
  return jsonReply(200, machine, baseUrl, 'application/hal+json');
}
