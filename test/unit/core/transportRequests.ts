// What the undici transport tests build their requests and options from, and
// how they read a failure: one copy for every file that drives the transport directly.
import * as assert from 'node:assert/strict';
import {
  isTransportError,
  type TransportError,
  type TransportOptions,
  type TransportRequest,
} from '../../../src/core/client/http/transport';
import { rejectionOf } from './testClient';

export const TIMEOUTS = { headersMs: 5_000, bodyMs: 5_000, totalMs: 8_000 };

/** Transport options that read no environment and no system store, plus what the test sets. */
export function transportOptions(extra: Partial<TransportOptions> = {}): TransportOptions {
  return { connectTimeoutMs: 5_000, connectionsPerOrigin: 8, env: {}, systemCertificates: false, ...extra };
}

export function getRequest(url: string, extra: Partial<TransportRequest> = {}): TransportRequest {
  return { method: 'GET', url, headers: {}, timeouts: TIMEOUTS, maxBytes: 1024, ...extra };
}

/** The TransportError a request fails with; fails the test if it succeeds or fails otherwise. */
export async function transportFailureOf(promise: Promise<unknown>): Promise<TransportError> {
  const error = await rejectionOf(promise);
  assert.ok(isTransportError(error), `expected a TransportError, got ${String(error)}`);
  return error;
}
