// Test Connection's TLS stages: the trusted certificate authorities (the same
// list the client's transport trusts, loadTrustedCertificates), by the store
// they came from, and one handshake that shows the certificate chain, whether
// it was accepted and which store vouched for it, or why it was refused.

import { X509Certificate } from 'node:crypto';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { definedOnly } from '../common/definedOnly';
import type { Localize } from '../common/localize';
import { readNamedFile } from '../common/namedFiles';
import { certificateFailure } from './http/networkFailures';
import { TransportError, type NetworkFailureContext } from './http/transport';
import { loadTrustedCertificates, MAX_CA_FILE_BYTES, pemCertificates } from './http/trustedCertificates';
import { literal } from './connectionReport';
import { codeOf, socketReady, timed, verdictFor, type Check } from './connectionStages';
import type { HttpSettings } from './onboardingClient';

interface TrustStore {
  /** Where the certificates came from; `file` is the file's path for the two file stores. */
  readonly kind: 'ca-file' | 'node-extra' | 'bundled' | 'system';
  readonly file?: string;
  readonly certificates: readonly X509Certificate[];
}

export interface Trust {
  /** What the client's transport trusts: the same list (loadTrustedCertificates). */
  readonly ca: readonly string[];
  /** The same certificates by where they came from, to say which store vouched for a server. */
  readonly stores: readonly TrustStore[];
  readonly summary: string;
}

export async function trustFor(
  http: HttpSettings,
  env: Readonly<NodeJS.ProcessEnv>,
  t: Localize,
  caFileName: string,
): Promise<{ value: Trust; error?: undefined } | { error: TransportError }> {
  let loaded;
  try {
    loaded = await loadTrustedCertificates(
      definedOnly({ systemCertificates: http.systemCertificates, caCertificatesFile: http.caCertificatesFile }),
      env,
    );
  } catch (error) {
    if (error instanceof TransportError) return { error };
    return { error: new TransportError('ca-file', codeOf(error), definedOnly({ caFile: http.caCertificatesFile })) };
  }
  const parse = (pems: readonly string[]): X509Certificate[] =>
    pems.flatMap((pem) => {
      try {
        return [new X509Certificate(pem)];
      } catch {
        return [];
      }
    });
  const file = http.caCertificatesFile?.trim();
  const extraFile = env['NODE_EXTRA_CA_CERTS']?.trim();
  const fromFile = file === undefined || file === '' ? [] : parse(await pemsOf(file));
  const fromExtra = extraFile === undefined || extraFile === '' ? [] : parse(await pemsOf(extraFile));
  const bundled = parse(rootCertificates);
  const all = parse(loaded.ca);
  const known = new Set([...fromFile, ...fromExtra, ...bundled].map((cert) => cert.fingerprint256));
  const system = all.filter((cert) => !known.has(cert.fingerprint256));
  const systemStore =
    loaded.systemStore === 'off'
      ? t('operating system store: off (http.systemCertificates is false)')
      : loaded.systemStore === 'unavailable'
        ? t('operating system store: could not be read on this system')
        : loaded.systemStore === 'node'
          ? t('operating system store: read (through Node.js), {0} not among the others', system.length)
          : t('operating system store: read (as files), {0} not among the others', system.length);
  const stores: TrustStore[] = [
    ...(file !== undefined && file !== '' ? [{ kind: 'ca-file' as const, file, certificates: fromFile }] : []),
    ...(extraFile !== undefined && extraFile !== '' ? [{ kind: 'node-extra' as const, file: extraFile, certificates: fromExtra }] : []),
    { kind: 'bundled', certificates: bundled },
    { kind: 'system', certificates: system },
  ];
  // A list of facts, each its own message, joined by '{0}; {1}' (Chinese writes the semicolon full-width).
  const summary = [
    t('bundled roots: {0}', bundled.length),
    systemStore,
    file === undefined || file === '' ? t('{0}: not set', caFileName) : t('{0}: {1} from {2}', caFileName, loaded.fromFile, literal(file)),
    ...(extraFile !== undefined && extraFile !== '' ? [t('NODE_EXTRA_CA_CERTS: {0} from {1}', fromExtra.length, literal(extraFile))] : []),
  ].reduce((list, item) => t('{0}; {1}', list, item));
  return { value: { ca: loaded.ca, stores, summary } };
}

/** The PEM certificates of a file loadTrustedCertificates already accepted (so it exists and is small). */
async function pemsOf(path: string): Promise<string[]> {
  try {
    return pemCertificates((await readNamedFile(path, { maxBytes: MAX_CA_FILE_BYTES })).toString('utf8'));
  } catch {
    return [];
  }
}

/** Why a certificate was refused, with what was trusted: one whole message per reason. */
function refusal(code: string | undefined, host: string, trusted: string, t: Localize): string {
  const shownCode = code ?? 'UNKNOWN';
  switch (code === undefined ? undefined : certificateFailure(code)) {
    case 'certificate-expired':
      return t('Not accepted ({0}): it has expired or is not valid yet. Trusted: {1}.', shownCode, trusted);
    case 'certificate-name-mismatch':
      return t('Not accepted ({0}): it does not name {1}. Trusted: {2}.', shownCode, literal(host), trusted);
    default:
      return t('Not accepted ({0}): no trusted certificate authority vouches for it. Trusted: {1}.', shownCode, trusted);
  }
}

/** "Accepted: vouched for by …, found in …", one whole message per store. */
function acceptedBy(anchor: X509Certificate, store: TrustStore, t: Localize, caFileName: string): string {
  const name = literal(nameOf(anchor.subject));
  switch (store.kind) {
    case 'ca-file':
      return t('Accepted: vouched for by {0}, found in the file in {1} ({2}).', name, caFileName, literal(store.file ?? ''));
    case 'node-extra':
      return t('Accepted: vouched for by {0}, found in the NODE_EXTRA_CA_CERTS file ({1}).', name, literal(store.file ?? ''));
    case 'bundled':
      return t("Accepted: vouched for by {0}, found in Node.js's bundled root certificates.", name);
    case 'system':
      return t("Accepted: vouched for by {0}, found in the operating system's certificate store.", name);
  }
}

function nameOf(distinguished: string): string {
  // X509Certificate writes one attribute per line ("C=DE\nO=Plant\nCN=api.plant.test").
  return distinguished
    .split('\n')
    .filter((part) => part !== '')
    .join(', ');
}

/** The chain the server sent, leaf first, each certificate once. */
function chainOf(peer: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  // At run time a missing certificate is an empty object, and a chain's end has no issuer: the types promise more.
  type Link = { readonly raw?: Buffer; readonly issuerCertificate?: Link } | undefined;
  let current: Link = peer;
  while (current?.raw !== undefined && chain.length < 10) {
    const cert = new X509Certificate(current.raw);
    if (seen.has(cert.fingerprint256)) break;
    seen.add(cert.fingerprint256);
    chain.push(cert);
    current = current.issuerCertificate;
  }
  return chain;
}

/** The store holding the certificate that vouches for the chain's top: its issuer, or the top itself. */
function anchorOf(
  chain: readonly X509Certificate[],
  stores: readonly TrustStore[],
): { store: TrustStore; anchor: X509Certificate } | undefined {
  const top = chain.at(-1);
  if (top === undefined) return undefined;
  const fingerprints = new Set(chain.map((cert) => cert.fingerprint256));
  for (const store of stores) {
    for (const candidate of store.certificates) {
      if (fingerprints.has(candidate.fingerprint256)) return { store, anchor: candidate };
      if (candidate.subject === top.issuer && top.checkIssued(candidate) && top.verify(candidate.publicKey)) {
        return { store, anchor: candidate };
      }
    }
  }
  return undefined;
}

/** TLS over the outermost of `layers` (the TCP socket, or a proxy's TLS); the new layer joins them at once. */
export async function handshake(
  check: Check,
  layers: Socket[],
  host: string,
  title: string,
  trust: Trust,
  http: HttpSettings,
  url: string,
  context: NetworkFailureContext,
): Promise<TLSSocket | undefined> {
  const { t } = check;
  const result = await timed(() => {
    // Verification is judged below, from the same list the client trusts, so the report can show a refused certificate too.
    const secure = tlsConnect({
      socket: layers.at(-1),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      host,
      ca: [...trust.ca],
      rejectUnauthorized: false,
    });
    layers.push(secure);
    secure.on('error', () => undefined);
    return socketReady(secure, 'secureConnect', check.limits.tlsMs, check.signal);
  });
  if ('error' in result) {
    if (check.signal?.aborted === true) return undefined;
    const code = codeOf(result.error);
    check.record(
      {
        title,
        status: 'failed',
        summary: t('no TLS session ({0}).', code),
        details: [t('Trusted: {0}.', trust.summary)],
        durationMs: result.ms,
      },
      verdictFor(check, code === 'ETIMEDOUT' ? 'connect-timeout' : 'connection', code, url, context),
    );
    return undefined;
  }
  const secure = result.value;
  const chain = chainOf(secure.getPeerCertificate(true));
  const leaf = chain[0];
  const details: string[] = [];
  if (leaf !== undefined) {
    details.push(t('Certificate: {0}, issued by {1}.', literal(nameOf(leaf.subject)), literal(nameOf(leaf.issuer))));
    details.push(t('Valid from {0} to {1}.', literal(leaf.validFrom), literal(leaf.validTo)));
    if (leaf.subjectAltName !== undefined) details.push(t('Names: {0}.', literal(leaf.subjectAltName)));
    details.push(t('SHA-256 fingerprint: {0}.', literal(leaf.fingerprint256)));
  }
  if (chain.length > 1) details.push(t('Chain: {0}.', chain.map((cert) => literal(nameOf(cert.subject))).join(' → ')));
  const anchor = anchorOf(chain, trust.stores);
  const protocol = secure.getProtocol() ?? 'TLS';
  const authorizationError = secure.authorizationError as unknown as string | Error | null | undefined;
  const code = authorizationError instanceof Error ? codeOf(authorizationError) : (authorizationError ?? undefined);
  const strict = http.proxyStrictSSL !== false;
  if (secure.authorized) {
    details.push(
      anchor === undefined
        ? t('Accepted by the trusted certificate authorities ({0}).', trust.summary)
        : acceptedBy(anchor.anchor, anchor.store, t, check.wording.names.caFile),
    );
    check.record({ title, status: 'ok', summary: t('{0}, certificate verified.', protocol), details, durationMs: result.ms });
    return secure;
  }
  details.push(refusal(code, host, trust.summary, t));
  if (!strict) {
    details.push(
      t(
        'http.proxyStrictSSL is false: the extension accepts this certificate without checking it. Anyone on the way could read the traffic.',
      ),
    );
    check.record({
      title,
      status: 'ok',
      summary: t('{0}, certificate NOT verified (http.proxyStrictSSL is off).', protocol),
      details,
      durationMs: result.ms,
    });
    return secure;
  }
  const failureCode = code ?? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE';
  check.record(
    { title, status: 'failed', summary: t('{0}, certificate refused ({1}).', protocol, failureCode), details, durationMs: result.ms },
    verdictFor(check, certificateFailure(failureCode) ?? 'untrusted-certificate', failureCode, url, context),
  );
  return undefined;
}
