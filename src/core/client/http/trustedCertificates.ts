// The CAs our TLS trusts. undici alone sees only Node's roots, while VS Code also trusts the OS store,
// so a company CA worked everywhere but here: Node's roots + the OS store (http.systemCertificates) +
// NODE_EXTRA_CA_CERTS + caCertificatesFile. Verification is never switched off here.

import * as tls from 'node:tls';
import { NamedFileError, readNamedFile } from '../../common/namedFiles';
import { TransportError, type TrustSettings } from './transport';

/** A CA bundle larger than this is not a CA bundle: refuse it rather than read it. */
export const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

export type SystemStoreSource = 'node' | 'system-ca' | 'unavailable' | 'off';

export interface TrustedCertificates {
  readonly ca: readonly string[];
  /** Where the OS store came from, for the log. */
  readonly systemStore: SystemStoreSource;
  readonly fromFile: number;
}

export type GetCACertificates = (type: 'default' | 'system' | 'bundled' | 'extra') => string[];

/** Where the stores are read from; tests pass their own to try each path on any Node and OS. */
export interface CertificateStores {
  readonly nodeReader: () => GetCACertificates | undefined;
  readonly systemCa: () => Promise<readonly string[]>;
}

const NODE_AND_SYSTEM_CA: CertificateStores = {
  // The types for Node 20 lack tls.getCACertificates; a Node either has it as a function or not at all.
  nodeReader: () => (tls as { getCACertificates?: GetCACertificates }).getCACertificates,
  systemCa: () => {
    // Loaded only here, so a Node that reads the store itself never loads it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { systemCertsAsync } = require('system-ca') as typeof import('system-ca');
    return systemCertsAsync();
  },
};

async function systemStore(stores: CertificateStores): Promise<{ source: SystemStoreSource; certificates: readonly string[] }> {
  const fromNode = stores.nodeReader();
  if (fromNode !== undefined) {
    try {
      return { source: 'node', certificates: fromNode('system') };
    } catch {
      // Fall through to the library: a store Node cannot read may still be readable as files.
    }
  }
  try {
    return { source: 'system-ca', certificates: await stores.systemCa() };
  } catch {
    return { source: 'unavailable', certificates: [] };
  }
}

function derKey(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
}

/** The PEM certificates in a file's text; anything else in it (comments, keys) is ignored. */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

async function certificatesFromFile(path: string): Promise<string[]> {
  const fail = (code: string): TransportError => new TransportError('ca-file', code, { caFile: path });
  let text: string;
  try {
    text = (await readNamedFile(path, { maxBytes: MAX_CA_FILE_BYTES })).toString('utf8');
  } catch (error) {
    if (error instanceof NamedFileError && error.refusal === 'not-a-file') throw fail('NOT_A_FILE');
    if (error instanceof NamedFileError && error.refusal === 'too-large') throw fail('FILE_TOO_LARGE');
    // The system's code (ENOENT, EACCES, …); every failure of the reader carries one, this is for the type.
    throw fail(error instanceof NamedFileError && error.code !== undefined ? error.code : 'UNREADABLE');
  }
  const found = pemCertificates(text);
  if (found.length === 0) throw fail('NO_PEM_CERTIFICATES');
  return found;
}

/** NODE_EXTRA_CA_CERTS as Node read it at start-up; best effort, as Node itself only warns about a bad file. */
async function nodeExtraCertificates(env: Readonly<NodeJS.ProcessEnv>, stores: CertificateStores): Promise<readonly string[]> {
  const fromNode = stores.nodeReader();
  if (fromNode !== undefined) {
    try {
      return fromNode('extra');
    } catch {
      return [];
    }
  }
  const path = env['NODE_EXTRA_CA_CERTS']?.trim();
  // A blank value needs no check of its own: stat('') fails (ENOENT) and is ignored below like any unusable file.
  if (path === undefined) return [];
  try {
    return await certificatesFromFile(path);
  } catch {
    return [];
  }
}

export async function loadTrustedCertificates(
  settings: TrustSettings,
  env: Readonly<NodeJS.ProcessEnv> = process.env,
  stores: CertificateStores = NODE_AND_SYSTEM_CA,
): Promise<TrustedCertificates> {
  const useSystem = settings.systemCertificates !== false;
  const system = useSystem ? await systemStore(stores) : { source: 'off' as const, certificates: [] };
  const file = settings.caCertificatesFile;
  const extra = file === undefined || file.trim() === '' ? [] : await certificatesFromFile(file.trim());
  const nodeExtra = await nodeExtraCertificates(env, stores);
  // Comparing DER content halves the list (the OS store mostly repeats Node's roots), and the context's build time with it.
  const unique = new Map<string, string>();
  for (const pem of [...tls.rootCertificates, ...system.certificates, ...nodeExtra, ...extra]) {
    const key = derKey(pem);
    if (!unique.has(key)) unique.set(key, pem.trim());
  }
  const ca = [...unique.values()];
  return { ca, systemStore: system.source, fromFile: extra.length };
}
