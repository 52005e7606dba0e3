// Defers loading undici (a separate bundle, see esbuild.mjs) until the first
// request: most activations only draw cached views and never touch the network.

import type { Transport, TransportOptions, TransportRequest, TransportResponse } from './transport';

export function createLazyTransport(options: TransportOptions): Transport {
  let loaded: Transport | undefined;
  let closed = false;
  const load = (): Transport => {
    if (loaded === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require('./undiciTransport') as typeof import('./undiciTransport');
      loaded = mod.createUndiciTransport(options);
    }
    return loaded;
  };
  return {
    request(request: TransportRequest): Promise<TransportResponse> {
      if (closed) return Promise.reject(new Error('The transport is closed.'));
      return load().request(request);
    },
    async close(): Promise<void> {
      closed = true;
      await loaded?.close();
    },
  };
}
