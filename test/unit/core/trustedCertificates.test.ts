// Which CAs the transport trusts: Node's roots, the OS store (from Node's own
// reader or the system-ca library), NODE_EXTRA_CA_CERTS and the CA file
// setting. Stores are handed in as CertificateStores so every path runs on any
// Node and OS; the files are real, in a temporary folder.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { isTransportError, type TransportError } from '../../../src/core/client/http/transport';
import {
  loadTrustedCertificates,
  MAX_CA_FILE_BYTES,
  pemCertificates,
  type CertificateStores,
  type GetCACertificates,
} from '../../../src/core/client/http/trustedCertificates';
import { testPki } from '../../support/network/testPki';

const pki = testPki();
const CA = pki.caPem.trim();
const SERVER = pki.server.cert.trim();
const SELF = pki.selfSigned.cert.trim();

/** Stores that answer from lists; `undefined` for a store that throws. */
function stores(node: { system?: string[]; extra?: string[] } | undefined, systemCa: string[] | undefined): CertificateStores {
  const reader: GetCACertificates = (type) => {
    const list = type === 'system' ? node?.system : type === 'extra' ? node?.extra : [];
    if (list === undefined) throw new Error(`cannot read ${type}`);
    return list;
  };
  return {
    nodeReader: () => (node === undefined ? undefined : reader),
    systemCa: () => (systemCa === undefined ? Promise.reject(new Error('no native module')) : Promise.resolve(systemCa)),
  };
}

async function caFileFailure(path: string): Promise<TransportError> {
  try {
    await loadTrustedCertificates({ systemCertificates: false, caCertificatesFile: path }, {});
  } catch (error) {
    assert.ok(isTransportError(error), `expected a TransportError, got ${String(error)}`);
    assert.equal(error.failure, 'ca-file');
    assert.equal(error.context.caFile, path);
    return error;
  }
  throw new Error('expected the CA file to be refused');
}

describe('trusted certificate authorities', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'oe-trust-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  describe('the operating system store', () => {
    it("takes it from Node's own reader where Node has one, with what Node read from NODE_EXTRA_CA_CERTS", async () => {
      const extraFile = file('ignored-extra.pem', pki.selfSigned.cert);
      const trusted = await loadTrustedCertificates(
        {},
        { NODE_EXTRA_CA_CERTS: extraFile },
        stores({ system: [CA], extra: [SERVER] }, [SELF]),
      );
      assert.equal(trusted.systemStore, 'node');
      assert.ok(trusted.ca.includes(CA));
      assert.ok(trusted.ca.includes(SERVER));
      assert.ok(!trusted.ca.includes(SELF), 'neither the library nor the variable is read when Node reads the stores');
    });

    it("falls back to the system-ca library when Node's reader fails, and still takes Node's extra certificates", async () => {
      const trusted = await loadTrustedCertificates({}, {}, stores({ extra: [SERVER] }, [SELF]));
      assert.equal(trusted.systemStore, 'system-ca');
      assert.ok(trusted.ca.includes(SELF));
      assert.ok(trusted.ca.includes(SERVER));
    });

    it('without any reader of the store, keeps the bundled roots and says the store is unavailable', async () => {
      const trusted = await loadTrustedCertificates({}, {}, stores({}, undefined));
      assert.equal(trusted.systemStore, 'unavailable');
      assert.deepEqual(
        trusted.ca,
        tls.rootCertificates.map((pem) => pem.trim()),
      );
    });

    it('http.systemCertificates false reads no store at all', async () => {
      const trusted = await loadTrustedCertificates({ systemCertificates: false }, {}, stores({ system: [CA] }, [SELF]));
      assert.equal(trusted.systemStore, 'off');
      assert.ok(!trusted.ca.includes(CA));
      assert.ok(!trusted.ca.includes(SELF));
    });

    it("uses the library on a Node without its own reader (as on Node 20) and Node's reader otherwise", async () => {
      const hasReader = typeof (tls as { getCACertificates?: unknown }).getCACertificates === 'function';
      const trusted = await loadTrustedCertificates({}, { NODE_EXTRA_CA_CERTS: pki.caFile });
      assert.equal(trusted.systemStore, hasReader ? 'node' : 'system-ca');
      // Node's reader reports what Node itself read at start-up, where this variable was not set.
      assert.equal(trusted.ca.includes(CA), !hasReader);
    });
  });

  describe('NODE_EXTRA_CA_CERTS without Node reading it for us', () => {
    const noNode = stores(undefined, []);

    it('adds the certificates of the file it names, path trimmed', async () => {
      const trusted = await loadTrustedCertificates({}, { NODE_EXTRA_CA_CERTS: ` ${pki.caFile} ` }, noNode);
      assert.ok(trusted.ca.includes(CA));
      assert.equal(trusted.fromFile, 0);
    });

    it('ignores a blank variable, and a file that cannot be used, as Node itself does', async () => {
      for (const value of [' ', '', join(dir, 'missing.pem'), file('no-pem.txt', 'not a certificate')]) {
        const trusted = await loadTrustedCertificates({}, { NODE_EXTRA_CA_CERTS: value }, noNode);
        assert.equal(trusted.ca.length, tls.rootCertificates.length, value);
      }
    });

    it("ignores a failure of Node's extra reader, and does not read the variable's file in its place", async () => {
      const extraFile = file('unread-extra.pem', pki.selfSigned.cert);
      const trusted = await loadTrustedCertificates(
        { systemCertificates: false },
        { NODE_EXTRA_CA_CERTS: extraFile },
        stores({ system: [CA] }, []),
      );
      assert.equal(trusted.ca.length, tls.rootCertificates.length);
      assert.ok(!trusted.ca.includes(SELF));
    });
  });

  describe('the CA file setting', () => {
    it('adds its certificates, path trimmed, and counts them', async () => {
      const both = file('both.pem', `${pki.caPem}\n${pki.server.cert}`);
      const trusted = await loadTrustedCertificates({ systemCertificates: false, caCertificatesFile: `  ${both}\t` }, {});
      assert.equal(trusted.fromFile, 2);
      assert.deepEqual(trusted.ca.slice(-2), [CA, SERVER]);
    });

    it('is ignored when blank', async () => {
      const trusted = await loadTrustedCertificates({ systemCertificates: false, caCertificatesFile: '   ' }, {});
      assert.equal(trusted.fromFile, 0);
      assert.equal(trusted.ca.length, tls.rootCertificates.length);
    });

    it('refuses a folder, a missing file, a file without certificates, and one larger than 4 MiB', async () => {
      assert.equal((await caFileFailure(dir)).code, 'NOT_A_FILE');
      assert.equal((await caFileFailure(join(dir, 'missing.pem'))).code, 'ENOENT');
      assert.equal((await caFileFailure(file('key-only.pem', pki.server.key))).code, 'NO_PEM_CERTIFICATES');
      const huge = file('huge.pem', `${pki.caPem}${' '.repeat(MAX_CA_FILE_BYTES + 1 - Buffer.byteLength(pki.caPem))}`);
      assert.equal((await caFileFailure(huge)).code, 'FILE_TOO_LARGE');
    });

    it('reads a file of exactly 4 MiB', async () => {
      assert.equal(MAX_CA_FILE_BYTES, 4 * 1024 * 1024);
      const full = file('full.pem', `${pki.caPem}${' '.repeat(MAX_CA_FILE_BYTES - Buffer.byteLength(pki.caPem))}`);
      const trusted = await loadTrustedCertificates({ systemCertificates: false, caCertificatesFile: full }, {});
      assert.equal(trusted.fromFile, 1);
    });
  });

  describe('each certificate once', () => {
    it('keeps one copy of a certificate found in several places or wrapped differently', async () => {
      const rewrapped = CA.replace(/\n/g, '\r\n').replace(/(-----\r\n)([A-Za-z0-9+/=]{20})/, '$1$2\r\n');
      const twice = file('twice.pem', `${pki.caPem}\n${rewrapped}\n${tls.rootCertificates[0] ?? ''}`);
      const trusted = await loadTrustedCertificates(
        { caCertificatesFile: twice },
        {},
        stores({ system: [`  ${CA}\n`, CA], extra: [CA] }, []),
      );
      assert.equal(trusted.fromFile, 3);
      assert.equal(trusted.ca.filter((pem) => pem === CA).length, 1);
      assert.equal(trusted.ca.length, tls.rootCertificates.length + 1);
      assert.ok(!trusted.ca.includes(`  ${CA}\n`));
    });
  });

  describe('PEM certificates in a text', () => {
    it('finds each certificate, also when two are written without a line between them', () => {
      assert.deepEqual(pemCertificates(`${CA}${SERVER}`), [CA, SERVER]);
      assert.deepEqual(pemCertificates(`junk ${CA}\r\n\r\n${SERVER} more junk`), [CA, SERVER]);
    });

    it('skips a block with anything but base64 between the markers', () => {
      const broken = CA.replace(/\n([A-Za-z0-9+/]{4})/, '\n!$1');
      assert.deepEqual(pemCertificates(`${broken}\n${SERVER}`), [SERVER]);
      assert.deepEqual(pemCertificates('no certificates here'), []);
    });
  });
});
