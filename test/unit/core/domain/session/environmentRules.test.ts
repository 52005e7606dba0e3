import * as assert from 'node:assert/strict';
import type { Environment } from '../../../../../src/core/domain/session/sessionState';
import {
  accountLabel,
  checkEndpointUrl,
  checkEnvironmentName,
  findSameAccount,
  isLoopbackHost,
  MAX_NAME_LENGTH,
  parseStoredEnvironments,
  sameName,
  suggestEnvironmentName,
} from '../../../../../src/core/domain/session/environmentRules';

function env(overrides: Partial<Environment> = {}): Environment {
  return {
    id: 'id-1',
    name: 'Production',
    apiBaseUrl: 'https://api.example.com',
    authUrl: 'https://auth.example.com/oauth',
    clientId: 'client',
    username: 'user',
    ...overrides,
  };
}

describe('environment rules: endpoint URLs', () => {
  const accepted: [string, string][] = [
    ['https://api.example.com', 'https://api.example.com'],
    ['  https://api.example.com/  ', 'https://api.example.com'],
    ['https://api.example.com/base//', 'https://api.example.com/base'],
    ['HTTPS://API.Example.com:8443/x', 'https://api.example.com:8443/x'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['http://127.255.0.9/api', 'http://127.255.0.9/api'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
  ];
  for (const [input, normalized] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${normalized}`, () => {
      assert.deepEqual(checkEndpointUrl(input), { ok: true, url: normalized });
    });
  }

  const refused: [string, string][] = [
    ['', 'empty'],
    ['   ', 'empty'],
    ['api.example.com', 'invalid'],
    ['ftp://api.example.com', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['http://api.example.com', 'insecure'],
    ['http://10.0.0.1', 'insecure'],
    ['http://128.0.0.1', 'insecure'],
    ['http://localhost.example.com', 'insecure'],
    ['http://fake.localhost', 'insecure'],
    ['http://[::2]', 'insecure'],
    ['https://user:pass@api.example.com', 'userinfo'],
    ['https://user@api.example.com', 'userinfo'],
    ['https://:pass@api.example.com', 'userinfo'],
    ['https://api.example.com/?token=x', 'query'],
    ['https://api.example.com/#frag', 'query'],
  ];
  for (const [input, problem] of refused) {
    it(`refuses ${JSON.stringify(input)} (${problem})`, () => {
      assert.deepEqual(checkEndpointUrl(input), { ok: false, problem });
    });
  }

  it('treats only 127.0.0.0/8, localhost and ::1 as loopback', () => {
    assert.equal(isLoopbackHost('127.0.0.1'), true);
    assert.equal(isLoopbackHost('127.1.2.3'), true);
    assert.equal(isLoopbackHost('LOCALHOST'), true);
    assert.equal(isLoopbackHost('[::1]'), true);
    assert.equal(isLoopbackHost('127.0.0.256'), false);
    assert.equal(isLoopbackHost('127.0.0.1.nip.io'), false);
    assert.equal(isLoopbackHost('192.168.1.1'), false);
  });

  const loopback: [string, boolean][] = [
    ['::1', true],
    ['localhost.', true],
    ['api.localhost', false],
    ['127.0.0.1.', true],
    ['127.0.0', false],
    ['127.0.0.1.1', false],
    ['127.0.0.0x1', false],
    ['127.0.0.1e2', false],
    ['127.0.0.', false],
    ['127.0.0. 1', false],
    ['127.0.0.1 ', false],
    ['128.0.0.1', false],
  ];
  for (const [host, expected] of loopback) {
    it(`${expected ? 'treats' : 'does not treat'} the host ${JSON.stringify(host)} as loopback`, () => {
      assert.equal(isLoopbackHost(host), expected);
    });
  }
});

describe('environment rules: names', () => {
  it('suggests the API host, made unique with a counter', () => {
    assert.equal(suggestEnvironmentName('https://api.example.com/x', []), 'api.example.com');
    assert.equal(suggestEnvironmentName('https://api.example.com', [env({ name: 'api.example.com' })]), 'api.example.com (2)');
    assert.equal(suggestEnvironmentName('not a url', []), 'Default');
  });

  it('counts on past every suggestion already taken', () => {
    const taken = [env({ id: 'a', name: 'api.example.com' }), env({ id: 'b', name: 'API.example.com (2)' })];
    assert.equal(suggestEnvironmentName('https://api.example.com', taken), 'api.example.com (3)');
  });

  it('compares names case-insensitively and without surrounding spaces, on either side', () => {
    assert.equal(sameName(' Production ', 'production'), true);
    assert.equal(sameName('production', ' PRODUCTION '), true);
    assert.equal(sameName('Production', 'Production 2'), false);
  });

  it(`accepts a name of exactly ${MAX_NAME_LENGTH} characters, and finds a taken name among several others`, () => {
    const others = [env({ id: 'a', name: 'Production' }), env({ id: 'b', name: 'Test' })];
    assert.equal(checkEnvironmentName('x'.repeat(MAX_NAME_LENGTH), others), undefined);
    assert.equal(checkEnvironmentName('test', others), 'taken');
    assert.equal(checkEnvironmentName('test', others, 'b'), undefined);
  });

  it('refuses empty, multi-line, too long and (case-insensitively) taken names, except the own one', () => {
    const others = [env({ id: 'a', name: 'Production' })];
    assert.equal(checkEnvironmentName('  ', others), 'empty');
    assert.equal(checkEnvironmentName('a\nb', others), 'too-long');
    assert.equal(checkEnvironmentName('x'.repeat(61), others), 'too-long');
    assert.equal(checkEnvironmentName('production ', others), 'taken');
    assert.equal(checkEnvironmentName('Production', others, 'a'), undefined);
    assert.equal(checkEnvironmentName('Test system', others), undefined);
  });

  it('labels accounts "username · Environment", without parentheses: VS Code adds the provider\'s name in them', () => {
    assert.equal(accountLabel(env({ username: 'api.user', name: 'Test' })), 'api.user · Test');
    assert.doesNotMatch(accountLabel(env({ username: 'api.user', name: 'Demo' })), /[()]/);
  });
});

describe('environment rules: stored environments are untrusted', () => {
  it('keeps well-formed entries and drops malformed, insecure and duplicate ones', () => {
    const good = env({ id: 'a' });
    const parsed = parseStoredEnvironments([
      good,
      { ...good },
      { ...good, id: 'b', apiBaseUrl: 'http://api.example.com' },
      { ...good, id: 'c', name: 42 },
      { ...good, id: '' },
      null,
      'text',
      { ...good, id: 'd', extra: 'ignored' },
    ]);
    assert.deepEqual(
      parsed.map((e) => e.id),
      ['a', 'd'],
    );
    assert.equal(Object.prototype.hasOwnProperty.call(parsed[1], 'extra'), false);
  });

  for (const field of ['id', 'name', 'apiBaseUrl', 'authUrl', 'clientId', 'username'] as const) {
    it(`drops an entry whose ${field} is missing, empty or not text`, () => {
      const good = env();
      const without = Object.fromEntries(Object.entries(good).filter(([key]) => key !== field));
      assert.deepEqual(parseStoredEnvironments([without, { ...good, [field]: '' }, { ...good, [field]: 7 }]), []);
      assert.deepEqual(parseStoredEnvironments([good]), [good]);
    });
  }

  it('drops an entry with an insecure authorization URL', () => {
    assert.deepEqual(parseStoredEnvironments([env({ authUrl: 'http://auth.example.com' })]), []);
  });

  it('drops entries that are not objects, even a function carrying every field', () => {
    const good = env();
    const fields: PropertyDescriptorMap = Object.fromEntries(
      Object.entries(good).map(([key, value]: [string, string]) => [key, { value, enumerable: true }]),
    );
    const callable: unknown = Object.defineProperties(() => undefined, fields);
    assert.deepEqual(parseStoredEnvironments([callable, 42, true]), []);
  });

  it('reads anything that is not an array as no environments', () => {
    assert.deepEqual(parseStoredEnvironments(undefined), []);
    assert.deepEqual(parseStoredEnvironments({ a: 1 }), []);
  });

  it('finds the same account by endpoints, client id and username', () => {
    const list = [env({ id: 'a' }), env({ id: 'b', username: 'other' })];
    assert.equal(
      findSameAccount(list, {
        apiBaseUrl: 'https://api.example.com',
        authUrl: 'https://auth.example.com/oauth',
        clientId: 'client',
        username: 'other',
      })?.id,
      'b',
    );
    assert.equal(
      findSameAccount(list, {
        apiBaseUrl: 'https://api2.example.com',
        authUrl: 'https://auth.example.com/oauth',
        clientId: 'client',
        username: 'user',
      }),
      undefined,
    );
  });

  it('an account on another authorization URL or with another client id is not the same account', () => {
    const list = [env({ id: 'a' })];
    const same = { apiBaseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com/oauth', clientId: 'client', username: 'user' };
    assert.equal(findSameAccount(list, same)?.id, 'a');
    assert.equal(findSameAccount(list, { ...same, authUrl: 'https://auth2.example.com/oauth' }), undefined);
    assert.equal(findSameAccount(list, { ...same, clientId: 'client-2' }), undefined);
    assert.equal(findSameAccount(list, { ...same, username: 'other' }), undefined);
  });
});
