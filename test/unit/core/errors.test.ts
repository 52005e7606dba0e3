// What each failure tells the user: kind, exact message and details, for every
// status of the API and every way a request can produce no response. Messages
// are behaviour here (they say what to do next), so they are pinned exactly.

import * as assert from 'node:assert/strict';
import {
  ApiError,
  cancelledError,
  describeRequest,
  disposedError,
  errorForApiStatus,
  errorForTransportFailure,
  invalidCredentialsError,
  invalidInputError,
  isApiError,
  notFoundError,
  permissionDeniedError,
  protocolError,
  rateLimitedError,
  rejectedFreshTokenError,
  serverError,
  unexpectedStatusError,
  type ApiErrorKind,
} from '../../../src/core/client/errors';
import { TransportError, type NetworkFailureContext } from '../../../src/core/client/http/transport';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

interface Shape {
  readonly kind: ApiErrorKind;
  readonly message: string;
  readonly details: ApiError['details'];
}

function shapeOf(error: ApiError): Shape {
  assert.ok(isApiError(error));
  return { kind: error.kind, message: extensionErrorText(error, plainLocalize), details: { ...error.details } };
}

const CHECK_SETTINGS = 'Check the API base URL and authorization URL settings, and any proxy in between.';
const SIGN_IN = "'Onboarding Events: Sign In'";

describe('API errors: what each failure tells the user', () => {
  describe('describeRequest', () => {
    it('names the method and path only, never the query string or host', () => {
      assert.equal(describeRequest('GET', 'https://api.example.com:8443/public/api/x?token=secret#frag'), 'GET /public/api/x');
    });

    it('names only the method when the URL cannot be parsed', () => {
      assert.equal(describeRequest('POST', 'not a url'), 'POST');
    });
  });

  describe('ApiError', () => {
    it('is an Error named ApiError with empty details by default', () => {
      const error = new ApiError('server', { kind: 'invalid-input', text: () => 'Boom.' });
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'ApiError');
      assert.equal(String(error), 'ApiError: Boom.');
      assert.deepEqual(error.details, {});
    });

    it('isApiError tells ApiErrors from other errors and values', () => {
      assert.equal(isApiError(cancelledError()), true);
      assert.equal(isApiError(new Error('x')), false);
      assert.equal(isApiError({ kind: 'server', message: 'x', details: {} }), false);
      assert.equal(isApiError(undefined), false);
    });
  });

  describe('errors built directly', () => {
    const cases: readonly [string, ApiError, Shape][] = [
      ['cancelled', cancelledError(), { kind: 'cancelled', message: 'The request was cancelled.', details: {} }],
      [
        'disposed',
        disposedError(),
        {
          kind: 'cancelled',
          message: 'The request was cancelled because the extension is shutting down or reloading its settings.',
          details: {},
        },
      ],
      [
        'invalid credentials without a status',
        invalidCredentialsError('POST /oauth/token'),
        {
          kind: 'invalid-credentials',
          message: `The API rejected the credentials. Run ${SIGN_IN} again.`,
          details: { request: 'POST /oauth/token' },
        },
      ],
      [
        'invalid credentials with a status',
        invalidCredentialsError('POST /oauth/token', 400),
        {
          kind: 'invalid-credentials',
          message: `The API rejected the credentials. Run ${SIGN_IN} again.`,
          details: { request: 'POST /oauth/token', status: 400 },
        },
      ],
      [
        'a rejected fresh token',
        rejectedFreshTokenError('GET /e'),
        {
          kind: 'invalid-credentials',
          message: `The API rejected a freshly issued access token (HTTP 401). Check that the API base URL and the authorization URL belong to the same environment, then run ${SIGN_IN} again.`,
          details: { status: 401, request: 'GET /e' },
        },
      ],
      [
        'permission denied without a status',
        permissionDeniedError('GET /e'),
        {
          kind: 'permission-denied',
          message:
            "The API user is not allowed to read onboarding events. Ask the administrator who created the API user to grant it access to the Onboarding Events API (scope 'api'), then sign in again.",
          details: { request: 'GET /e' },
        },
      ],
      [
        'not found, by default of "the requested resource"',
        notFoundError('GET /e'),
        {
          kind: 'not-found',
          message: 'The requested resource was not found (HTTP 404). Check the serial number and the API base URL setting.',
          details: { status: 404, request: 'GET /e' },
        },
      ],
      [
        'rate limited with no Retry-After',
        rateLimitedError('GET /e', 429),
        {
          kind: 'rate-limited',
          message: 'The API is limiting how often it may be called (HTTP 429). Wait a minute and try again.',
          details: { status: 429, request: 'GET /e' },
        },
      ],
      [
        'rate limited with a Retry-After of 1.5 s (rounded up)',
        rateLimitedError('GET /e', 503, 1_500),
        {
          kind: 'rate-limited',
          message: 'The API is limiting how often it may be called (HTTP 503). Wait 2 s and try again.',
          details: { status: 503, request: 'GET /e', retryAfterMs: 1_500 },
        },
      ],
      [
        'rate limited with a Retry-After of 0 (at least a second)',
        rateLimitedError('GET /e', 429, 0),
        {
          kind: 'rate-limited',
          message: 'The API is limiting how often it may be called (HTTP 429). Wait 1 s and try again.',
          details: { status: 429, request: 'GET /e', retryAfterMs: 0 },
        },
      ],
      [
        'a server error',
        serverError('GET /e', 502),
        {
          kind: 'server',
          message: 'The API had a problem answering (HTTP 502). Try again later; if it persists, the service may be down.',
          details: { status: 502, request: 'GET /e' },
        },
      ],
      [
        'an unexpected status',
        unexpectedStatusError('GET /e', 302),
        {
          kind: 'protocol',
          message: 'The API answered with an unexpected HTTP 302. Check the API base URL setting.',
          details: { status: 302, request: 'GET /e' },
        },
      ],
      [
        'a protocol error without a status',
        protocolError('GET /e', (t) => t('Odd.')),
        { kind: 'protocol', message: `Odd. ${CHECK_SETTINGS}`, details: { request: 'GET /e' } },
      ],
      [
        'a protocol error with a status',
        protocolError('GET /e', (t) => t('Odd.'), 200),
        { kind: 'protocol', message: `Odd. ${CHECK_SETTINGS}`, details: { request: 'GET /e', status: 200 } },
      ],
      ['invalid input', invalidInputError((t) => t('No.')), { kind: 'invalid-input', message: 'No.', details: {} }],
    ];
    for (const [name, error, expected] of cases) {
      it(name, () => {
        assert.deepEqual(shapeOf(error), expected);
      });
    }
  });

  describe('errorForApiStatus (any API answer but the token endpoint)', () => {
    const request = 'GET /public/api/x';
    const cases: readonly [number, number | undefined, string | undefined, Shape][] = [
      [401, undefined, undefined, shapeOf(invalidCredentialsError(request, 401))],
      [403, undefined, undefined, shapeOf(permissionDeniedError(request, 403))],
      [
        404,
        undefined,
        'The linked resource',
        {
          kind: 'not-found',
          message: 'The linked resource was not found (HTTP 404). Check the serial number and the API base URL setting.',
          details: { status: 404, request },
        },
      ],
      [404, undefined, undefined, shapeOf(notFoundError(request))],
      [429, 2_000, undefined, shapeOf(rateLimitedError(request, 429, 2_000))],
      [500, undefined, undefined, shapeOf(serverError(request, 500))],
      [503, 1_000, undefined, shapeOf(serverError(request, 503))],
      [499, undefined, undefined, shapeOf(unexpectedStatusError(request, 499))],
      [400, undefined, undefined, shapeOf(unexpectedStatusError(request, 400))],
    ];
    for (const [status, retryAfterMs, what, expected] of cases) {
      it(`HTTP ${status}${what === undefined ? '' : ` for ${what}`} is ${expected.kind}`, () => {
        assert.deepEqual(shapeOf(errorForApiStatus(request, status, retryAfterMs, what === undefined ? undefined : () => what)), expected);
      });
    }
  });

  describe('errorForTransportFailure (no response at all)', () => {
    const URL = 'https://api.example.com:8443/public/api/x?q=1';
    const request = 'GET /public/api/x';

    function failure(kind: TransportError['failure'], code: string, context?: NetworkFailureContext, timeoutMs = 30_000): Shape {
      return shapeOf(errorForTransportFailure(new TransportError(kind, code, context), 'GET', URL, timeoutMs));
    }

    function network(networkFailure: string, message: string, causes: readonly string[]): Shape {
      return { kind: 'network', message, details: { request, network: networkFailure as never, causes } };
    }

    it('an aborted request is cancelled', () => {
      assert.deepEqual(failure('aborted', 'ABORT_ERR'), shapeOf(cancelledError()));
    });

    it('a connect timeout names the host and port, and carries the causes', () => {
      assert.deepEqual(failure('connect-timeout', 'UND_ERR_CONNECT_TIMEOUT', { causes: ['A', 'B'] }), {
        kind: 'timeout',
        message: 'Could not connect to api.example.com:8443 in time. Check your network and proxy settings, then try again.',
        details: { request, network: 'connect-timeout', causes: ['A', 'B'] },
      });
    });

    for (const kind of ['headers-timeout', 'body-timeout', 'total-timeout'] as const) {
      it(`a ${kind} says how long we waited, in whole seconds`, () => {
        assert.deepEqual(failure(kind, 'UND_ERR_X', {}, 2_600), {
          kind: 'timeout',
          message:
            'api.example.com:8443 did not answer within 3 s. Try again, or raise the request timeout setting if the service is slow.',
          details: { request, network: 'response-timeout', causes: ['UND_ERR_X'] },
        });
      });
    }

    it('the response timeout rounds to the nearest second', () => {
      assert.match(failure('headers-timeout', 'X', {}, 2_400).message, /did not answer within 2 s\./);
    });

    it('a too-large answer is a protocol error naming the host', () => {
      assert.deepEqual(failure('too-large', 'TOO_LARGE'), {
        kind: 'protocol',
        message: `The answer from api.example.com:8443 was larger than the allowed maximum, so it was not read. ${CHECK_SETTINGS}`,
        details: { request },
      });
    });

    it('an invalid proxy setting says which settings to fix', () => {
      assert.deepEqual(
        failure('proxy-invalid', 'ERR_INVALID_URL'),
        network(
          'proxy-invalid',
          'The proxy setting is not a valid URL. Fix the http.proxy setting or the HTTPS_PROXY environment variable.',
          ['ERR_INVALID_URL'],
        ),
      );
    });

    it('an invalid URL is invalid input naming the request', () => {
      assert.deepEqual(failure('invalid-url', 'ERR_INVALID_URL'), {
        kind: 'invalid-input',
        message: 'The URL for GET /public/api/x is not valid. Check the API base URL and authorization URL settings.',
        details: {},
      });
    });

    it('a self-signed certificate says so and names the CA setting', () => {
      assert.deepEqual(
        failure('untrusted-certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
        network(
          'untrusted-certificate',
          "api.example.com:8443 presented a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT). If your company or a TLS-inspecting proxy uses its own CA, save its certificate (PEM) to a file and set onboardingEvents.caCertificatesFile to that file's path, or add the CA to the operating system's certificate store.",
          ['DEPTH_ZERO_SELF_SIGNED_CERT'],
        ),
      );
    });

    it('a certificate from an unknown CA says the CA is not trusted', () => {
      assert.match(
        failure('untrusted-certificate', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY').message,
        /^api\.example\.com:8443 presented a certificate from a certificate authority this computer does not trust \(UNABLE_TO_GET_ISSUER_CERT_LOCALLY\)\. /,
      );
    });

    it('an expired certificate asks for renewal', () => {
      assert.deepEqual(
        failure('certificate-expired', 'CERT_HAS_EXPIRED'),
        network(
          'certificate-expired',
          "The certificate of api.example.com:8443 has expired (CERT_HAS_EXPIRED). Ask the server's administrators to renew it, and check this computer's date and time.",
          ['CERT_HAS_EXPIRED'],
        ),
      );
    });

    it('a certificate not yet valid points at the clock first', () => {
      assert.deepEqual(
        failure('certificate-expired', 'CERT_NOT_YET_VALID'),
        network(
          'certificate-expired',
          "The certificate of api.example.com:8443 is not valid yet (CERT_NOT_YET_VALID). Check this computer's date and time; otherwise ask the server's administrators.",
          ['CERT_NOT_YET_VALID'],
        ),
      );
    });

    it('a certificate for another name says to use the name it was issued for', () => {
      assert.deepEqual(
        failure('certificate-name-mismatch', 'ERR_TLS_CERT_ALTNAME_INVALID'),
        network(
          'certificate-name-mismatch',
          'The certificate of api.example.com:8443 was issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID). Use the host name the certificate names in the API base URL and authorization URL settings.',
          ['ERR_TLS_CERT_ALTNAME_INVALID'],
        ),
      );
    });

    it('a 407 without credentials sent asks for them', () => {
      assert.deepEqual(
        failure('proxy-auth-required', 'PROXY_407', { proxyHost: 'proxy.corp:3128', proxyStatus: 407 }),
        network(
          'proxy-auth-required',
          'The proxy proxy.corp:3128 requires authentication (HTTP 407). Put the user and password in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization.',
          ['PROXY_407'],
        ),
      );
    });

    it('a 407 after credentials were sent says they were rejected', () => {
      assert.deepEqual(
        failure('proxy-auth-required', 'PROXY_407', { proxyHost: 'proxy.corp:3128', proxyCredentialsSent: true }),
        network(
          'proxy-auth-required',
          'The proxy proxy.corp:3128 rejected the proxy credentials (HTTP 407). Correct the user and password in the proxy URL (http.proxy or HTTPS_PROXY) or the http.proxyAuthorization setting.',
          ['PROXY_407'],
        ),
      );
    });

    it('a proxy that refuses the tunnel names its status and the host', () => {
      assert.deepEqual(
        failure('proxy-refused', 'PROXY_403', { proxyHost: 'proxy.corp:3128', proxyStatus: 403, causes: ['PROXY_403', 'X'] }),
        network(
          'proxy-refused',
          'The proxy proxy.corp:3128 refused to open a connection to api.example.com:8443 (HTTP 403). Ask your network administrators to allow api.example.com:8443, or exempt it with the http.noProxy setting or NO_PROXY if it is reachable without the proxy.',
          ['PROXY_403', 'X'],
        ),
      );
    });

    it('a proxy refusal with no status and no proxy host says "the proxy" and HTTP 502', () => {
      assert.match(
        failure('proxy-refused', 'PROXY_REFUSED').message,
        /^The proxy refused to open a connection to api\.example\.com:8443 \(HTTP 502\)\./,
      );
    });

    it('an unreachable proxy names the proxy settings', () => {
      assert.deepEqual(
        failure('proxy-unreachable', 'ECONNREFUSED', { proxyHost: 'proxy.corp:3128' }),
        network(
          'proxy-unreachable',
          'Could not connect to the proxy proxy.corp:3128 (ECONNREFUSED). Check the http.proxy setting and the HTTPS_PROXY and HTTP_PROXY environment variables.',
          ['ECONNREFUSED'],
        ),
      );
    });

    it('an unusable CA file names the file and the setting', () => {
      assert.deepEqual(
        failure('ca-file', 'ENOENT', { caFile: '/etc/ca.pem' }),
        network(
          'ca-file',
          'The CA certificates file "/etc/ca.pem" could not be used (ENOENT). Set onboardingEvents.caCertificatesFile to a readable PEM file of CA certificates, or clear it.',
          ['ENOENT'],
        ),
      );
    });

    it('a CA file failure without a path quotes an empty one', () => {
      assert.match(failure('ca-file', 'ENOENT').message, /^The CA certificates file "" could not be used/);
    });

    it('an unknown host names the host without its port', () => {
      assert.deepEqual(
        failure('dns', 'ENOTFOUND'),
        network(
          'dns',
          'The host name api.example.com could not be found (ENOTFOUND). Check the API base URL and authorization URL settings, and your DNS or VPN connection.',
          ['ENOTFOUND'],
        ),
      );
    });

    it('a refused connection points at the port and the tunnel', () => {
      assert.deepEqual(
        failure('connection-refused', 'ECONNREFUSED'),
        network(
          'connection-refused',
          'api.example.com:8443 refused the connection (ECONNREFUSED). Check the port in the API base URL and authorization URL settings, and that the service (or your SSH tunnel) is running.',
          ['ECONNREFUSED'],
        ),
      );
    });

    it('any other connection failure names the host and code', () => {
      assert.deepEqual(
        failure('connection', 'ECONNRESET'),
        network(
          'connection',
          'Could not reach api.example.com:8443 (ECONNRESET). Check your network connection, the API base URL and proxy settings, then try again.',
          ['ECONNRESET'],
        ),
      );
    });

    it('an unparsable URL is described as "the server"', () => {
      const host = (kind: TransportError['failure']): string =>
        errorForTransportFailure(new TransportError(kind, 'E'), 'GET', 'not a url', 30_000).message;
      assert.match(host('connection'), /^Could not reach the server \(E\)\./);
      assert.match(host('dns'), /^The host name the server could not be found \(E\)\./);
    });
  });
});
