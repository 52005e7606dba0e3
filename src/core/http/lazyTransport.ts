// Defers loading undici (a separate bundle, see esbuild.mjs) until the first
// request: most activations only draw cached views and never touch the network.
// The HTTP client calls the loader once and then the transport directly.

import type { Transport, TransportOptions } from './transport';

export function lazyTransport(options: TransportOptions): () => Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => (require('./undiciTransport') as typeof import('./undiciTransport')).createUndiciTransport(options);
}
