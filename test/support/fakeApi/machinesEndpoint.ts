// GET {baseUrl}/public/api/machines/{assetId}: the target of the `machine`
// HAL link (spec §2.3), so tests can follow links from events; also the
// machine's events, the target of the demo data's templated link.

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

function serialOfAsset(context: EndpointContext, assetId: string): string | undefined {
  const assets = context.data.assets ?? {};
  const fromAsset = Object.prototype.hasOwnProperty.call(assets, assetId) ? field(assets[assetId], 'serialNumber') : undefined;
  if (typeof fromAsset === 'string') {
    return fromAsset;
  }
  const derived = field(derivedMachine(context, assetId), 'serialNumber');
  return typeof derived === 'string' ? derived : undefined;
}

/** GET .../machines/{assetId}/events{?from,to}: the target of the demo's templated link. */
function machineEvents(context: EndpointContext, assetId: string): Reply {
  const { request, baseUrl } = context;
  const serial = serialOfAsset(context, assetId);
  if (serial === undefined) {
    return errorReply(404, `No machine with asset id ${assetId}.`, request.path, baseUrl);
  }
  const from = Number(request.query['from'] ?? -Infinity);
  const to = Number(request.query['to'] ?? Infinity);
  const events = (context.data.machines[serial] ?? []).filter((event) => {
    const ts = field(event, 'timestamp');
    return typeof ts !== 'number' || (ts >= from && ts <= to);
  });
  return jsonReply(200, { events }, baseUrl, 'application/json');
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
  const [rawId = '', sub, ...rest] = request.path.slice(MACHINES_PREFIX.length).split('/');
  let assetId: string;
  try {
    assetId = decodeURIComponent(rawId);
  } catch {
    return errorReply(400, 'Malformed asset id.', request.path, baseUrl);
  }
  if (sub === 'events' && rest.length === 0) {
    return machineEvents(context, assetId);
  }
  if (sub !== undefined) {
    return errorReply(404, 'No such resource.', request.path, baseUrl);
  }
  const assets = context.data.assets ?? {};
  const machine = Object.prototype.hasOwnProperty.call(assets, assetId) ? assets[assetId] : derivedMachine(context, assetId);
  if (machine === undefined) {
    return errorReply(404, `No machine with asset id ${assetId}.`, request.path, baseUrl);
  }
  return jsonReply(200, machine, baseUrl, 'application/hal+json');
}
