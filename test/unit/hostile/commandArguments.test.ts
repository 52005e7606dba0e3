// Hostile corpus: argument forms of commands, which any other extension and
// any `command:` link can run. Outside our tests an argument may prefill, but
// signing in shows the URLs in a modal first; the demo's one-step sign-in is
// honoured only for exactly what the demo's extension host was started with.
// Add a row.
import assert from 'node:assert/strict';
import { demoGrant, planArgumentSignIn, signInFields, type SignInFields } from '../../../src/domain/session/argumentSignIn';
import type { Environment } from '../../../src/domain/session/sessionState';
import { ConfirmedEndpoints } from '../../../src/session/confirmedEndpoints';

const DEMO: SignInFields = {
  apiBaseUrl: 'http://127.0.0.1:4711',
  authUrl: 'http://127.0.0.1:4711/oauth',
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  username: 'demo',
  password: 'demo-password',
  environment: 'Demo',
};
const PRODUCTION: Environment = {
  id: 'p1',
  name: 'Production',
  apiBaseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com/oauth',
  clientId: 'c',
  username: 'u',
};
const ATTACKER: SignInFields = {
  ...DEMO,
  apiBaseUrl: 'https://api.example.com',
  authUrl: 'https://evil.example/oauth',
  environment: 'Production',
};

describe('hostile input: argument forms of commands', () => {
  describe('the plan for signIn with an argument object', () => {
    const grant = demoGrant(JSON.stringify({ signIn: DEMO }));
    const rows: readonly { name: string; input: Parameters<typeof planArgumentSignIn>[0]; expected: string }[] = [
      {
        name: 'under our tests: silent',
        input: {
          fields: ATTACKER,
          apiBaseUrl: ATTACKER.apiBaseUrl,
          authUrl: ATTACKER.authUrl,
          existing: PRODUCTION,
          testMode: true,
          grant: undefined,
        },
        expected: 'silent',
      },
      {
        name: 'a new environment outside tests: confirm',
        input: { fields: DEMO, apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl, existing: undefined, testMode: false, grant: undefined },
        expected: 'confirm',
      },
      {
        name: 'overwriting Production with another /token: confirm, naming what it replaces',
        input: {
          fields: ATTACKER,
          apiBaseUrl: ATTACKER.apiBaseUrl,
          authUrl: ATTACKER.authUrl,
          existing: PRODUCTION,
          testMode: false,
          grant,
        },
        expected: 'confirm+replaces',
      },
      {
        name: 'the demo grant, exactly: silent',
        input: { fields: DEMO, apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl, existing: undefined, testMode: false, grant },
        expected: 'silent',
      },
      {
        name: 'the demo grant with one field changed: confirm',
        input: {
          fields: { ...DEMO, password: 'x' },
          apiBaseUrl: DEMO.apiBaseUrl,
          authUrl: DEMO.authUrl,
          existing: undefined,
          testMode: false,
          grant,
        },
        expected: 'confirm',
      },
      {
        name: 'the demo grant naming an existing environment: confirm',
        input: {
          fields: DEMO,
          apiBaseUrl: DEMO.apiBaseUrl,
          authUrl: DEMO.authUrl,
          existing: { ...PRODUCTION, name: 'Demo', apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl },
          testMode: false,
          grant,
        },
        expected: 'confirm',
      },
    ];
    for (const row of rows) {
      it(row.name, () => {
        const plan = planArgumentSignIn(row.input);
        const shown = plan.kind === 'confirm' ? `confirm${plan.replaces ? '+replaces' : ''}` : plan.kind;
        assert.equal(shown, row.expected);
        if (plan.kind === 'confirm') {
          assert.equal(plan.authUrl, row.input.authUrl, 'the modal shows the authorization server that would get the password');
          assert.equal(plan.apiBaseUrl, row.input.apiBaseUrl);
        }
      });
    }
  });

  describe('the demo grant (OE_DEMO_SIGN_IN)', () => {
    const rows: readonly [string, string | undefined, boolean][] = [
      ["absent (every user's VS Code)", undefined, false],
      ["the demo's loopback sign-in", JSON.stringify({ signIn: DEMO }), true],
      ['a remote API', JSON.stringify({ signIn: { ...DEMO, apiBaseUrl: 'https://api.example.com' } }), false],
      ['a remote authorization server', JSON.stringify({ signIn: { ...DEMO, authUrl: 'https://evil.example/oauth' } }), false],
      ['a loopback-looking host name', JSON.stringify({ signIn: { ...DEMO, authUrl: 'http://127.0.0.1.evil.example/oauth' } }), false],
      ['a field missing', JSON.stringify({ signIn: { ...DEMO, password: '' } }), false],
      ['not JSON', '{signIn', false],
      ['absurdly long', JSON.stringify({ signIn: DEMO, pad: 'x'.repeat(20_000) }), false],
    ];
    for (const [name, variable, granted] of rows) {
      it(`${name}: ${granted ? 'granted' : 'no grant'}`, () => {
        assert.equal(demoGrant(variable) !== undefined, granted);
      });
    }
  });

  it('signInFields needs all six non-empty strings', () => {
    assert.equal(signInFields({ ...DEMO, clientId: 3 }), undefined);
    assert.deepEqual(signInFields({ ...DEMO, extra: 'x' }), DEMO);
  });

  it('Sign In Again starts at the URL steps once the URLs differ from those the user confirmed', async () => {
    const values = new Map<string, unknown>();
    const confirmed = new ConfirmedEndpoints({
      get: (key) => values.get(key),
      update: (key, value) => Promise.resolve(void values.set(key, value)),
    });
    assert.equal(confirmed.isConfirmed(PRODUCTION), false, 'nothing confirmed yet');
    await confirmed.confirm(PRODUCTION);
    assert.equal(confirmed.isConfirmed(PRODUCTION), true);
    assert.equal(
      confirmed.isConfirmed({ ...PRODUCTION, authUrl: 'https://evil.example/oauth' }),
      false,
      'another /token is not what the user confirmed',
    );
  });
});
