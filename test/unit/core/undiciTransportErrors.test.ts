// How what undici and Node throw becomes a NetworkFailure: the errors here
// are built in the shapes those libraries use (a code, a `cause` chain, and
// for a refused CONNECT only a message), so every rule is tried without a network.

import * as assert from 'node:assert/strict';
import { causeCodes, classifyNetworkError, type FailureSituation } from '../../../src/core/client/http/networkFailures';
import { TransportError, type NetworkFailureContext } from '../../../src/core/client/http/transport';

/** An error as Node and undici make them: an Error with a code, optionally wrapping another. */
function coded(code: string | undefined, cause?: unknown, message = 'failed'): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code }, cause === undefined ? {} : { cause });
}

/** A chain of coded errors, outermost first. */
function chain(...codes: string[]): Error {
  return codes.reduceRight<Error | undefined>((cause, code) => coded(code, cause), undefined) ?? new Error('empty');
}

const DIRECT: FailureSituation = { deadlinePassed: false };
const VIA_PROXY: FailureSituation = { deadlinePassed: false, proxyHost: 'proxy.corp:3128', proxyCredentialsSent: false };

function classified(error: unknown, situation: FailureSituation = DIRECT): { failure: TransportError['failure']; code: string } {
  const result = classifyNetworkError(error, situation);
  return { failure: result.failure, code: result.code };
}

describe('network error classification', () => {
  describe('cause codes', () => {
    it('lists the codes from the outermost error down its cause chain', () => {
      assert.deepEqual(causeCodes(chain('UND_ERR_CONNECT', 'ECONNREFUSED')), ['UND_ERR_CONNECT', 'ECONNREFUSED']);
    });

    it('follows the chain at most five errors deep', () => {
      assert.deepEqual(causeCodes(chain('A1', 'A2', 'A3', 'A4', 'A5', 'A6')), ['A1', 'A2', 'A3', 'A4', 'A5']);
    });

    it('writes a code repeated by the next error once, but keeps one that comes back later', () => {
      assert.deepEqual(causeCodes(chain('ECONNRESET', 'ECONNRESET', 'EPIPE', 'ECONNRESET')), ['ECONNRESET', 'EPIPE', 'ECONNRESET']);
    });

    it('skips errors without a string code and stops at a cause that is not an object', () => {
      const error = coded(undefined, coded('ETIMEDOUT', 'a string cause'));
      assert.deepEqual(causeCodes(error), ['ETIMEDOUT']);
      assert.deepEqual(causeCodes({ code: 42, cause: { code: 'EPIPE' } }), ['EPIPE']);
      assert.deepEqual(causeCodes('ECONNRESET'), []);
      assert.deepEqual(causeCodes(null), []);
    });
  });

  describe('what the failure is', () => {
    it('passes a TransportError through unchanged, even one from the other bundle', () => {
      const own = new TransportError('too-large', 'RESPONSE_TOO_LARGE');
      assert.equal(classifyNetworkError(own, VIA_PROXY), own);
      const foreign = Object.assign(new Error('dns (ENOTFOUND)'), {
        failure: 'dns',
        code: 'ENOTFOUND',
        context: {},
        [Symbol.for('onboardingEvents.TransportError')]: true,
      });
      assert.equal(classifyNetworkError(foreign, DIRECT), foreign);
    });

    const cases: readonly [string, unknown, TransportError['failure'], string][] = [
      ['a reset connection', chain('ECONNRESET'), 'connection', 'ECONNRESET'],
      ['an error without any code', new Error('socket hang up'), 'connection', 'UNKNOWN'],
      ['something that is not even an Error', 'boom', 'connection', 'UNKNOWN'],
      ['a refused connection, wrapped by undici', chain('UND_ERR_SOCKET', 'ECONNREFUSED'), 'connection-refused', 'ECONNREFUSED'],
      ['an unknown host', chain('ENOTFOUND'), 'dns', 'ENOTFOUND'],
      ['a DNS server that does not answer', chain('EAI_AGAIN'), 'dns', 'EAI_AGAIN'],
      ['a DNS failure', chain('EAI_FAIL'), 'dns', 'EAI_FAIL'],
      ['a name without an address', chain('EAI_NONAME'), 'dns', 'EAI_NONAME'],
      ['a name without data', chain('EAI_NODATA'), 'dns', 'EAI_NODATA'],
      ["undici's connect timeout", chain('UND_ERR_CONNECT_TIMEOUT'), 'connect-timeout', 'UND_ERR_CONNECT_TIMEOUT'],
      ["the system's connect timeout", chain('UND_ERR_SOCKET', 'ETIMEDOUT'), 'connect-timeout', 'ETIMEDOUT'],
      ['a connect timeout wrapping another code', chain('UND_ERR_CONNECT_TIMEOUT', 'EINPROGRESS'), 'connect-timeout', 'EINPROGRESS'],
      ['headers that did not come in time', chain('UND_ERR_HEADERS_TIMEOUT'), 'headers-timeout', 'UND_ERR_HEADERS_TIMEOUT'],
      ['a body that stalled', chain('UND_ERR_BODY_TIMEOUT'), 'body-timeout', 'UND_ERR_BODY_TIMEOUT'],
      ['an unreachable host (not through a proxy)', chain('EHOSTUNREACH'), 'connection', 'EHOSTUNREACH'],
      ['an unreachable network (not through a proxy)', chain('ENETUNREACH'), 'connection', 'ENETUNREACH'],
      ['an argument undici refused', chain('UND_ERR_INVALID_ARG'), 'invalid-url', 'UND_ERR_INVALID_ARG'],
      ["undici's own size limit", chain('UND_ERR_RES_EXCEEDED_MAX_SIZE'), 'too-large', 'UND_ERR_RES_EXCEEDED_MAX_SIZE'],
      ['a cancelled request', chain('UND_ERR_ABORTED'), 'aborted', 'ABORT_ERR'],
      ["Node's abort code", chain('ABORT_ERR'), 'aborted', 'ABORT_ERR'],
      ['an AbortError without a code', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'aborted', 'ABORT_ERR'],
      ['an object named AbortError that is no Error', { name: 'AbortError' }, 'connection', 'UNKNOWN'],
      ['a cancel that only the cause calls one', chain('UND_ERR_SOCKET', 'UND_ERR_ABORTED'), 'connection', 'UND_ERR_ABORTED'],
      ['an invalid argument deeper down', chain('UND_ERR_SOCKET', 'UND_ERR_INVALID_ARG'), 'connection', 'UND_ERR_INVALID_ARG'],
    ];
    for (const [what, error, failure, code] of cases) {
      it(`${what} is "${failure}" (${code})`, () => {
        assert.deepEqual(classified(error), { failure, code });
      });
    }

    it('a cancel after our own deadline passed is a total timeout, not a cancel', () => {
      for (const error of [chain('UND_ERR_ABORTED'), chain('ABORT_ERR'), Object.assign(new Error('x'), { name: 'AbortError' })]) {
        assert.deepEqual(classified(error, { deadlinePassed: true }), { failure: 'total-timeout', code: 'TOTAL_TIMEOUT' });
      }
    });
  });

  describe('certificates', () => {
    const verdicts: readonly [string, TransportError['failure']][] = [
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'untrusted-certificate'],
      ['UNABLE_TO_GET_ISSUER_CERT', 'untrusted-certificate'],
      ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'untrusted-certificate'],
      ['SELF_SIGNED_CERT_IN_CHAIN', 'untrusted-certificate'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'untrusted-certificate'],
      ['CERT_UNTRUSTED', 'untrusted-certificate'],
      ['CERT_SIGNATURE_FAILURE', 'untrusted-certificate'],
      ['INVALID_CA', 'untrusted-certificate'],
      ['CERT_HAS_EXPIRED', 'certificate-expired'],
      ['CERT_NOT_YET_VALID', 'certificate-expired'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'certificate-name-mismatch'],
      ['HOSTNAME_MISMATCH', 'certificate-name-mismatch'],
    ];
    for (const [code, failure] of verdicts) {
      it(`OpenSSL's ${code} is "${failure}", also when undici wraps it, and also through a proxy`, () => {
        assert.deepEqual(classified(chain(code)), { failure, code });
        assert.deepEqual(classified(chain('UND_ERR_SOCKET', code)), { failure, code });
        assert.deepEqual(classified(chain(code), VIA_PROXY), { failure, code });
      });
    }

    it('the root cause decides, not an error in the middle of a longer chain', () => {
      assert.deepEqual(classified(chain('UND_ERR_SOCKET', 'ECONNRESET', 'ECONNREFUSED')), {
        failure: 'connection-refused',
        code: 'ECONNREFUSED',
      });
    });

    it('the innermost verdict decides when several are in the chain', () => {
      assert.deepEqual(classified(chain('CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT')), {
        failure: 'untrusted-certificate',
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
      assert.deepEqual(classified(chain('DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ECONNRESET')), {
        failure: 'certificate-name-mismatch',
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      });
      assert.deepEqual(classified(chain('ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_NOT_YET_VALID')), {
        failure: 'certificate-expired',
        code: 'CERT_NOT_YET_VALID',
      });
    });
  });

  describe('through a proxy', () => {
    const unreachable: readonly string[] = [
      'ENOTFOUND',
      'EAI_AGAIN',
      'ECONNREFUSED',
      'ETIMEDOUT',
      'UND_ERR_CONNECT_TIMEOUT',
      'EHOSTUNREACH',
      'ENETUNREACH',
    ];
    for (const code of unreachable) {
      it(`${code} means the proxy itself cannot be reached: we only ever connect to the proxy`, () => {
        assert.deepEqual(classified(chain('UND_ERR_SOCKET', code), VIA_PROXY), { failure: 'proxy-unreachable', code });
      });
    }

    it('a connect timeout named only by the outer error is the proxy being unreachable, with the root code', () => {
      assert.deepEqual(classified(chain('UND_ERR_CONNECT_TIMEOUT', 'EINPROGRESS'), VIA_PROXY), {
        failure: 'proxy-unreachable',
        code: 'EINPROGRESS',
      });
    });

    it('timeouts after the connection and resets keep their own names', () => {
      assert.deepEqual(classified(chain('UND_ERR_HEADERS_TIMEOUT'), VIA_PROXY), {
        failure: 'headers-timeout',
        code: 'UND_ERR_HEADERS_TIMEOUT',
      });
      assert.deepEqual(classified(chain('ECONNRESET'), VIA_PROXY), { failure: 'connection', code: 'ECONNRESET' });
    });

    /** What undici throws when the proxy answers a CONNECT with anything but 200. */
    const refusedTunnel = (status: number): Error =>
      coded('UND_ERR_ABORTED', undefined, `Proxy response (${status}) !== 200 when HTTP Tunneling`);

    it('a 407 to the CONNECT is "proxy authentication required", with the status and whether credentials went along', () => {
      const error = classifyNetworkError(refusedTunnel(407), { ...VIA_PROXY, proxyCredentialsSent: true });
      assert.equal(error.failure, 'proxy-auth-required');
      assert.equal(error.code, 'PROXY_407');
      assert.deepEqual(error.context, {
        causes: ['UND_ERR_ABORTED'],
        proxyHost: 'proxy.corp:3128',
        proxyCredentialsSent: true,
        proxyStatus: 407,
      } satisfies NetworkFailureContext);
    });

    it('a 407 to a plain-http request sent through the proxy is "proxy authentication required", not an invalid URL', () => {
      // undici's Http1ProxyWrapper turns the proxy's 407 into an InvalidArgumentError.
      const error = classifyNetworkError(coded('UND_ERR_INVALID_ARG', undefined, 'Proxy Authentication Required (407)'), VIA_PROXY);
      assert.deepEqual([error.failure, error.code, error.context.proxyStatus], ['proxy-auth-required', 'PROXY_407', 407]);
    });

    it('any other status to the CONNECT is "proxy refused", found also on a wrapped error', () => {
      const error = classifyNetworkError(coded('UND_ERR_SOCKET', refusedTunnel(502)), VIA_PROXY);
      assert.deepEqual(
        { failure: error.failure, code: error.code, status: error.context.proxyStatus },
        {
          failure: 'proxy-refused',
          code: 'PROXY_502',
          status: 502,
        },
      );
    });

    it('looks for the status at most five errors deep', () => {
      const deep = coded('E1', coded('E2', coded('E3', coded('E4', refusedTunnel(502)))));
      assert.equal(classifyNetworkError(deep, VIA_PROXY).failure, 'proxy-refused');
      const tooDeep = coded('E0', deep);
      assert.equal(classifyNetworkError(tooDeep, VIA_PROXY).failure, 'connection');
    });

    it('reads the status only from a message that starts with it', () => {
      const quoted = coded('UND_ERR_ABORTED', undefined, 'upstream said: Proxy response (502) !== 200');
      assert.deepEqual(classified(quoted, VIA_PROXY), { failure: 'aborted', code: 'ABORT_ERR' });
      const quoted407 = coded('UND_ERR_INVALID_ARG', undefined, 'invalid header: Proxy Authentication Required (407)');
      assert.deepEqual(classified(quoted407, VIA_PROXY), { failure: 'invalid-url', code: 'UND_ERR_INVALID_ARG' });
    });

    it('a proxy status without a proxy in use is just a cancel', () => {
      assert.deepEqual(classified(refusedTunnel(502), DIRECT), { failure: 'aborted', code: 'ABORT_ERR' });
    });

    it('says which proxy was used and whether credentials were sent, and nothing of a direct connection', () => {
      assert.deepEqual(classifyNetworkError(chain('ECONNRESET'), VIA_PROXY).context, {
        causes: ['ECONNRESET'],
        proxyHost: 'proxy.corp:3128',
        proxyCredentialsSent: false,
      });
      assert.deepEqual(classifyNetworkError(chain('ECONNRESET'), { deadlinePassed: false, proxyHost: 'p:1' }).context, {
        causes: ['ECONNRESET'],
        proxyHost: 'p:1',
        proxyCredentialsSent: false,
      });
      assert.deepEqual(classifyNetworkError(chain('UND_ERR_SOCKET', 'ECONNRESET'), DIRECT).context, {
        causes: ['UND_ERR_SOCKET', 'ECONNRESET'],
      });
    });
  });
});
