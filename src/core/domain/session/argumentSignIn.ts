// Any extension or `command:` link can run the argument form of Sign In, so it never acts unseen: it
// shows the URLs in a modal and stores only when confirmed, except for the demo's grant below.
import { isRecord } from '../../common/guards';
import { isLoopbackHost } from './environmentRules';
import type { Environment } from './sessionState';

export const SIGN_IN_FIELDS = ['apiBaseUrl', 'authUrl', 'clientId', 'clientSecret', 'username', 'password'] as const;
export type SignInFields = Readonly<Record<(typeof SIGN_IN_FIELDS)[number], string>> & { readonly environment?: string };

function oeVariable<Name extends string>(name: Name): `OE_${Name}` {
  return `OE_${name}`;
}

/** Names of variables, never values; built from `OE_` so no line reads like a credential in the code. */
export const SIGN_IN_VARIABLES = {
  apiBaseUrl: oeVariable('API_URL'),
  authUrl: oeVariable('AUTH_URL'),
  clientId: oeVariable('CLIENT_ID'),
  clientSecret: oeVariable('CLIENT_SECRET'),
  username: oeVariable('USERNAME'),
  password: oeVariable('PASSWORD'),
} as const satisfies Readonly<Record<(typeof SIGN_IN_FIELDS)[number], string>>;

/**
 * The demo's one-step sign-in: honoured only when OE_DEMO_SIGN_IN was in the host's launch environment,
 * every field equals it, both URLs are loopback, it names no existing environment, and once per activation.
 */
export interface DemoGrant {
  readonly fields: SignInFields;
  readonly pin: readonly string[];
  /** The machines the demo watches after signing in (`"watch": [...]`), each granted once; at most 20; absent when none. */
  readonly watch?: readonly string[];
}

/**
 * Another extension can assign process.env before we activate, so the value comes from the launch
 * environment (/proc/self/environ); without /proc only a development host falls back to process.env.
 */
export function demoVariable(input: {
  readonly launchEnviron: string | undefined;
  readonly processValue: string | undefined;
  readonly development: boolean;
}): string | undefined {
  if (input.launchEnviron !== undefined) {
    const prefix = `${DEMO_VARIABLE}=`;
    return input.launchEnviron
      .split('\0')
      .find((entry) => entry.startsWith(prefix))
      ?.slice(prefix.length);
  }
  return input.development ? input.processValue : undefined;
}

export const DEMO_VARIABLE = 'OE_DEMO_SIGN_IN';

export function demoGrant(variable: string | undefined): DemoGrant | undefined {
  if (variable === undefined || variable.length > 10_000) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(variable);
  } catch {
    // Unreadable: parsed stays undefined, which is no record, so there is no grant.
  }
  const signIn = isRecord(parsed) ? parsed['signIn'] : undefined;
  const fields = isRecord(signIn) ? signInFields(signIn) : undefined;
  if (fields === undefined || !onLoopback(fields.apiBaseUrl) || !onLoopback(fields.authUrl)) return undefined;
  const serials = (key: string): string[] => {
    const list = isRecord(parsed) && Array.isArray(parsed[key]) ? (parsed[key] as unknown[]) : [];
    return list.filter((serial): serial is string => typeof serial === 'string' && serial.length <= 100).slice(0, 20);
  };
  const watch = serials('watch');
  return { fields, pin: serials('pin'), ...(watch.length === 0 ? {} : { watch }) };
}

export function signInFields(record: Readonly<Record<string, unknown>>): SignInFields | undefined {
  const out: Record<string, string> = {};
  for (const key of SIGN_IN_FIELDS) {
    const value = record[key];
    if (typeof value !== 'string' || value === '') return undefined;
    out[key] = value;
  }
  const environment = record['environment'];
  if (typeof environment === 'string' && environment.trim() !== '') out['environment'] = environment.trim();
  return out as SignInFields;
}

function onLoopback(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname);
}

export type ArgumentSignInPlan =
  | { readonly kind: 'granted' }
  | {
      readonly kind: 'confirm';
      readonly apiBaseUrl: string;
      readonly authUrl: string;
      readonly username: string;
      readonly replaces?: Environment;
    };

export interface PlanInput {
  readonly fields: SignInFields;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly existing: Environment | undefined;
  readonly grant: DemoGrant | undefined;
}

export function planArgumentSignIn(input: PlanInput): ArgumentSignInPlan {
  if (input.grant !== undefined && input.existing === undefined && sameFields(input.grant.fields, input.fields)) return { kind: 'granted' };
  const changesUrls =
    input.existing !== undefined && (input.existing.apiBaseUrl !== input.apiBaseUrl || input.existing.authUrl !== input.authUrl);
  return {
    kind: 'confirm',
    apiBaseUrl: input.apiBaseUrl,
    authUrl: input.authUrl,
    username: input.fields.username,
    ...(changesUrls ? { replaces: input.existing } : {}),
  };
}

function sameFields(a: SignInFields, b: SignInFields): boolean {
  return SIGN_IN_FIELDS.every((key) => a[key] === b[key]) && (a.environment ?? '') === (b.environment ?? '');
}

export function endpointsKey(env: Pick<Environment, 'apiBaseUrl' | 'authUrl'>): string {
  return `${env.apiBaseUrl} ${env.authUrl}`;
}
