// The secrets of an environment and its access token, in the operating system's
// keychain (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring, loaded only when a command needs it. Each
// record names where it may be sent, so an edited config file cannot redirect it.
import { isRecord } from '../core/common/guards';
import type { Localize } from '../core/common/localize';
import { toSingleLine } from '../core/common/markdownText';
import type { AccessToken, Credentials } from '../core/client/auth/tokenClient';
import type { CliEnvironment } from './cliConfig';

/** What a keychain entry of ours holds: a JSON text of at most this many characters (a record from elsewhere may be anything). */
const MAX_RECORD_CHARS = 64 * 1024;
/** An unlock prompt waits for a person; beyond this the command gives up rather than hang a terminal. */
const KEYCHAIN_TIMEOUT_MS = 120_000;

/** The secrets of an environment, and the place and user they belong to. */
export interface StoredCredentials extends CliEnvironment {
  readonly clientSecret: string;
  readonly password: string;
}

/** An access token, where it was granted and for whom. */
export interface StoredToken extends AccessToken {
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly clientId: string;
  readonly username: string;
}

/** The keychain could not be used: not there, locked, or it refused; the message says what to do. */
export class KeychainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeychainError';
  }
}

interface AsyncEntryLike {
  setPassword(password: string, signal?: AbortSignal | null): Promise<void>;
  getPassword(signal?: AbortSignal | null): Promise<string | null>;
  deletePassword(signal?: AbortSignal | null): Promise<boolean>;
}
type EntryConstructor = new (
  service: string,
  account: string,
  options?: { linux?: { store?: 'secret-service' | 'keyutils' } },
) => AsyncEntryLike;

let loaded: EntryConstructor | undefined;

/** The native module, on first use: `oe --version` and a pipeline with every variable set never load it. */
function entryConstructor(t: Localize): EntryConstructor {
  if (loaded !== undefined) return loaded;
  try {
    // A plain require, which the bundler leaves alone: the module ships beside oe.js as a dependency.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = (require('@napi-rs/keyring') as { AsyncEntry: EntryConstructor }).AsyncEntry;
    return loaded;
  } catch (error) {
    throw new KeychainError(
      t(
        'The keychain module @napi-rs/keyring cannot be loaded ({0}): reinstall oe, or set the OE_* variables instead of signing in.',
        detailOf(error),
      ),
    );
  }
}

function detailOf(error: unknown): string {
  return toSingleLine(error instanceof Error ? error.message : String(error), 300);
}

/** The library's failure as a message that says what to do in a terminal. */
function keychainFailure(error: unknown, t: Localize): KeychainError {
  const detail = detailOf(error);
  const remedy = t(
    'Or set OE_CLIENT_SECRET and OE_PASSWORD (with OE_API_URL, OE_AUTH_URL, OE_CLIENT_ID and OE_USERNAME): they need no keychain.',
  );
  if (/dbus|d-bus|secret service/i.test(detail) && /locked|unlock|prompt|dismissed/i.test(detail))
    return new KeychainError(
      `${t('The keychain is locked ({0}). Unlock it (log in to the desktop, or run gnome-keyring-daemon --unlock) and run oe again.', detail)} ${remedy}`,
    );
  if (/dbus|d-bus|secret service|no result/i.test(detail))
    return new KeychainError(
      `${t('No keychain is available ({0}). On Linux oe keeps credentials in the Secret Service: start a desktop session or gnome-keyring-daemon in this D-Bus session (DBUS_SESSION_BUS_ADDRESS).', detail)} ${remedy}`,
    );
  return new KeychainError(`${t('The keychain refused access ({0}).', detail)} ${remedy}`);
}

/** One keychain entry of this environment; names are compared without regard to case, as the extension compares them. */
function entry(envName: string, kind: 'credentials' | 'token', t: Localize): AsyncEntryLike {
  const Entry = entryConstructor(t);
  try {
    // Only the Secret Service on Linux: the library's fallback, the kernel keyring, forgets everything at logout.
    return new Entry(`oe:${envName.trim().toLocaleLowerCase()}`, kind, { linux: { store: 'secret-service' } });
  } catch (error) {
    throw keychainFailure(error, t);
  }
}

async function attempt<T>(work: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, t: Localize): Promise<T> {
  try {
    return await work(AbortSignal.any([signal, AbortSignal.timeout(KEYCHAIN_TIMEOUT_MS)]));
  } catch (error) {
    if (signal.aborted) throw error;
    throw keychainFailure(error, t);
  }
}

async function readRecord(
  envName: string,
  kind: 'credentials' | 'token',
  signal: AbortSignal,
  t: Localize,
): Promise<Record<string, unknown> | undefined> {
  const keychainEntry = entry(envName, kind, t);
  const text = await attempt((s) => keychainEntry.getPassword(s), signal, t);
  if (text === null || text.length > MAX_RECORD_CHARS) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function strings<K extends string>(record: Record<string, unknown> | undefined, keys: readonly K[]): Record<K, string> | undefined {
  if (record === undefined) return undefined;
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== 'string' || value === '') return undefined;
    out[key] = value;
  }
  return out as Record<K, string>;
}

const PLACE = ['name', 'apiBaseUrl', 'authUrl', 'clientId', 'username'] as const;

export async function readCredentials(envName: string, signal: AbortSignal, t: Localize): Promise<StoredCredentials | undefined> {
  return strings(await readRecord(envName, 'credentials', signal, t), [...PLACE, 'clientSecret', 'password']);
}

export async function readToken(envName: string, signal: AbortSignal, t: Localize): Promise<StoredToken | undefined> {
  const record = await readRecord(envName, 'token', signal, t);
  const fields = strings(record, ['apiBaseUrl', 'authUrl', 'clientId', 'username', 'value']);
  const refreshAt = record?.['refreshAt'];
  if (fields === undefined || typeof refreshAt !== 'number' || !Number.isFinite(refreshAt)) return undefined;
  return { ...fields, refreshAt };
}

export async function storeCredentials(credentials: StoredCredentials, signal: AbortSignal, t: Localize): Promise<void> {
  const keychainEntry = entry(credentials.name, 'credentials', t);
  await attempt((s) => keychainEntry.setPassword(JSON.stringify(credentials), s), signal, t);
}

export async function storeToken(envName: string, token: StoredToken, signal: AbortSignal, t: Localize): Promise<void> {
  const keychainEntry = entry(envName, 'token', t);
  await attempt((s) => keychainEntry.setPassword(JSON.stringify(token), s), signal, t);
}

/** Removes both entries of the environment; whether there was anything to remove. */
export async function deleteEnvironmentSecrets(envName: string, signal: AbortSignal, t: Localize): Promise<boolean> {
  let removed = false;
  for (const kind of ['token', 'credentials'] as const) {
    const keychainEntry = entry(envName, kind, t);
    if (await attempt((s) => keychainEntry.deletePassword(s), signal, t)) removed = true;
  }
  return removed;
}

/** The same place and the same user: only then may a stored secret or token be sent. */
export function samePlace(
  a: Pick<CliEnvironment, 'apiBaseUrl' | 'authUrl' | 'clientId' | 'username'>,
  b: Pick<CliEnvironment, 'apiBaseUrl' | 'authUrl' | 'clientId' | 'username'>,
): boolean {
  return a.apiBaseUrl === b.apiBaseUrl && a.authUrl === b.authUrl && a.clientId === b.clientId && a.username === b.username;
}

export function credentialsOfRecord(record: StoredCredentials): Credentials {
  return { clientId: record.clientId, clientSecret: record.clientSecret, username: record.username, password: record.password };
}
