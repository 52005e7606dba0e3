// A certificate authority made at test time with the `openssl` command (on
// every Debian machine; npm test installs it where missing), and server
// certificates it signs: a good one, an expired one, one for another host
// name, and a self-signed one that no CA vouches for. Made once per process,
// in a temporary folder removed at exit. EC P-256 keys keep it fast (~50 ms).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The host name the HTTPS fake answers to; it resolves only through the tests' own lookup or proxy. */
export const PLANT_HOST = 'api.plant.test';
/** A second name of the same API, for tests that send it direct (http.noProxy) and resolve it through /etc/hosts. */
export const DIRECT_HOST = 'direct.plant.test';
/** The name in an https proxy's certificate (signed by the proxy CA); addressed as 127.0.0.1, the name does not match. */
export const PROXY_HOST = 'proxy.plant.test';

export interface KeyPair {
  readonly key: string;
  readonly cert: string;
}

export interface TestPki {
  readonly dir: string;
  /** PEM file of the test CA: what a user would put in onboardingEvents.caCertificatesFile. */
  readonly caFile: string;
  readonly caPem: string;
  /** Valid for api.plant.test, direct.plant.test, localhost and 127.0.0.1, signed by the CA. */
  readonly server: KeyPair;
  /** Same names, signed by the CA, but expired. */
  readonly expired: KeyPair;
  /** Signed by the CA for other.example only. */
  readonly wrongName: KeyPair;
  /** Valid names, but signed by itself. */
  readonly selfSigned: KeyPair;
  /** A second CA, the company's proxy CA: it signs only the https proxy's certificate, so trusting the API's CA does not trust the proxy. */
  readonly proxyCaFile: string;
  /** Both CAs in one PEM file: what a user behind the https proxy puts in onboardingEvents.caCertificatesFile. */
  readonly bothCasFile: string;
  /** For proxy.plant.test only (no IP address), signed by the proxy CA. */
  readonly proxy: KeyPair & { readonly certFile: string; readonly keyFile: string };
}

const NAMES = `DNS:${PLANT_HOST},DNS:${DIRECT_HOST},DNS:localhost,IP:127.0.0.1`;

let made: TestPki | undefined;

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function signed(dir: string, name: string, subjectAltName: string, days: number, ca = 'ca'): KeyPair {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, ['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${subjectAltName}\nextendedKeyUsage=serverAuth\n`);
  // -days -1 puts notAfter a day before notBefore: a certificate that has expired.
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    String(days),
    '-extfile',
    `${name}.ext`,
  ]);
  return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') };
}

export function testPki(): TestPki {
  if (made !== undefined) return made;
  const dir = mkdtempSync(join(tmpdir(), 'oe-test-pki-'));
  process.once('exit', () => {
    rmSync(dir, { recursive: true, force: true });
  });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const authority = (name: string, subject: string): void => {
    openssl(dir, ['req', '-x509', ...ec, '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', subject]);
  };
  authority('ca', '/CN=Onboarding Events Test Plant CA');
  authority('proxy-ca', '/CN=Onboarding Events Test Proxy CA');
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    '-subj',
    `/CN=${PLANT_HOST}`,
    '-addext',
    `subjectAltName=${NAMES}`,
  ]);
  writeFileSync(join(dir, 'both-cas.pem'), readFileSync(join(dir, 'ca.pem'), 'utf8') + readFileSync(join(dir, 'proxy-ca.pem'), 'utf8'));
  made = {
    dir,
    caFile: join(dir, 'ca.pem'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    server: signed(dir, 'server', NAMES, 2),
    expired: signed(dir, 'expired', NAMES, -1),
    wrongName: signed(dir, 'wrong-name', 'DNS:other.example', 2),
    selfSigned: { key: readFileSync(join(dir, 'self.key'), 'utf8'), cert: readFileSync(join(dir, 'self.pem'), 'utf8') },
    proxyCaFile: join(dir, 'proxy-ca.pem'),
    bothCasFile: join(dir, 'both-cas.pem'),
    proxy: {
      ...signed(dir, 'proxy', `DNS:${PROXY_HOST}`, 2, 'proxy-ca'),
      certFile: join(dir, 'proxy.pem'),
      keyFile: join(dir, 'proxy.key'),
    },
  };
  return made;
}
