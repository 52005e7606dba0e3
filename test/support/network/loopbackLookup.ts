// A host-name resolver for tests: the names given resolve to 127.0.0.1, every
// other name fails as an unknown host would (ENOTFOUND), and no DNS query is
// ever sent. Handed to the client as HttpSettings.lookup.

import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

export function loopbackLookup(names: readonly string[]): LookupFunction & { readonly asked: readonly string[] } {
  const known = new Set(names.map((name) => name.toLowerCase()));
  const asked: string[] = [];
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    asked.push(hostname);
    process.nextTick(() => {
      if (!known.has(hostname.toLowerCase())) {
        const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
          errno: -3008,
          syscall: 'getaddrinfo',
          hostname,
        });
        callback(error, options.all === true ? [] : '', 4);
        return;
      }
      if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    });
  };
  return Object.assign(lookup as LookupFunction, { asked });
}
