// GET {baseUrl}/public/api/onboarding-events/events (spec §4.1).

import type { EndpointContext } from './context';
import { requireBearer } from './bearer';
import { wrapEvents } from './envelopes';
import { filterByTimestamp, orderEvents } from './ordering';
import { errorReply, jsonReply, type Reply } from './reply';

export const EVENTS_PATH = '/public/api/onboarding-events/events';

/** Stable per serial, so a shuffled order stays the same across pages of one list. */
function seedOf(serial: string): number {
  let hash = 2166136261;
  for (const ch of serial) {
    hash = Math.imul(hash ^ (ch.codePointAt(0) ?? 0), 16777619);
  }
  return hash >>> 0;
}

export function handleEvents(context: EndpointContext): Reply {
  const { request, config, data, baseUrl } = context;
  if (request.method !== 'GET') {
    return { ...errorReply(405, 'Use GET.', request.path, baseUrl), headers: { allow: 'GET' } };
  }
  const denied = requireBearer(context);
  if (denied !== undefined) {
    return denied;
  }
  const serial = request.query['serialNumber'];
  if (serial === undefined || serial === '') {
    return errorReply(400, "Required request parameter 'serialNumber' is not present.", request.path, baseUrl);
  }
  const rawTimestamp = request.query['timestamp'];
  if (rawTimestamp !== undefined && !/^-?\d+$/.test(rawTimestamp)) {
    return errorReply(400, "Parameter 'timestamp' must be an integer.", request.path, baseUrl);
  }

  const stored = Object.prototype.hasOwnProperty.call(data.machines, serial) ? data.machines[serial] : undefined;
  if (stored === undefined && config.unknownSerial === '404') {
    return errorReply(404, `No machine with serial number ${serial}.`, request.path, baseUrl);
  }
  const filtered = filterByTimestamp(stored ?? [], rawTimestamp === undefined ? undefined : Number(rawTimestamp), config.timestampFilter);
  const ordered = orderEvents(filtered, config.order, seedOf(serial));
  const wrapped = wrapEvents(context.envelope, ordered, request.query, config.cursorDefaultLimit);
  if (!wrapped.ok) {
    return errorReply(400, wrapped.message, request.path, baseUrl);
  }
  return jsonReply(200, wrapped.body, baseUrl, config.contentType);
}
