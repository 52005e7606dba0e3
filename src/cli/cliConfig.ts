// oe's environments (--env NAME, OE_ENV): where each one's API is and who signs
// in there, in a config file of no secret; the secrets are in the keychain
// (cliKeychain.ts). The file is read as untrusted input: bounded, validated.
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { definedOnly } from '../core/common/definedOnly';
import { errorMessage } from '../core/common/errors';
import type { Localize } from '../core/common/localize';
import { toSingleLine } from '../core/common/markdownText';
import { NamedFileError, readNamedFileSync, writeNamedFile } from '../core/common/namedFiles';
import { checkEndpointUrl, checkEnvironmentName, sameName } from '../core/domain/session/environmentRules';
import { UsageError } from './cliCommand';

/** What the config file keeps of an environment: the extension's Environment without its id, which only VS Code needs. */
export interface CliEnvironment {
  /** As in the extension: "Production", "Test system"; compared without regard to case. */
  readonly name: string;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly clientId: string;
  readonly username: string;
}

export interface CliConfig {
  readonly environments: readonly CliEnvironment[];
  /** The name of the environment used when neither --env nor OE_ENV names one. */
  readonly default?: string;
}

export const ENV_VARIABLE = 'OE_ENV';
const MAX_CONFIG_BYTES = 256 * 1024;
const MAX_ENVIRONMENTS = 100;
const MAX_FIELD_LENGTH = 1000;

/**
 * The config file: %APPDATA%\oe on Windows; elsewhere the XDG config folder, macOS included, as gh and
 * kubectl keep theirs in the home folder where a terminal user looks, not in ~/Library.
 */
export function configPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') {
    const appData = env['APPDATA'];
    if (appData !== undefined && isAbsolute(appData)) return join(appData, 'oe', 'config.json');
  }
  // XDG: a relative XDG_CONFIG_HOME is invalid and ignored.
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'oe', 'config.json');
  const home = env['HOME'] !== undefined && isAbsolute(env['HOME']) ? env['HOME'] : homedir();
  return join(home, '.config', 'oe', 'config.json');
}

/** A config file that cannot be used: bad input, with its path and what to do. */
function badConfig(path: string, why: string, t: Localize): UsageError {
  return new UsageError(
    t('The config file {0} cannot be used: {1} Fix or delete it, then run oe auth login.', toSingleLine(path, 300), toSingleLine(why, 300)),
  );
}

/** The config file as written, or no environments when there is none. */
export function readConfig(path: string, t: Localize): CliConfig {
  let text: string;
  try {
    text = readNamedFileSync(path, { maxBytes: MAX_CONFIG_BYTES, ownedByUs: true, noFinalLink: true }).toString('utf8');
  } catch (error) {
    if (error instanceof NamedFileError && error.code === 'ENOENT') return { environments: [] };
    throw badConfig(path, errorMessage(error, t), t);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badConfig(path, t('it is not valid JSON.'), t);
  }
  return parseConfig(raw, (why) => badConfig(path, why, t), t);
}

function field(item: Record<string, unknown>, key: keyof CliEnvironment): string | undefined {
  const value = item[key];
  // eslint-disable-next-line no-control-regex
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_FIELD_LENGTH && !/[\u0000-\u001f\u007f]/.test(value)
    ? value.trim()
    : undefined;
}

/** The config's JSON checked field by field; the first fault is thrown through `fail`. */
export function parseConfig(raw: unknown, fail: (why: string) => Error, t: Localize): CliConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw fail(t('it is not a JSON object.'));
  const { environments, default: chosen } = raw as Record<string, unknown>;
  if (!Array.isArray(environments)) throw fail(t('"environments" is not a list.'));
  if (environments.length > MAX_ENVIRONMENTS) throw fail(t('it has more than {0} environments.', MAX_ENVIRONMENTS));
  const out: CliEnvironment[] = [];
  environments.forEach((item: unknown, index) => {
    const where = t('environment {0}', index + 1);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw fail(t('{0} is not a JSON object.', where));
    const record = item as Record<string, unknown>;
    const values: Partial<Record<keyof CliEnvironment, string>> = {};
    for (const key of ['name', 'apiBaseUrl', 'authUrl', 'clientId', 'username'] as const) {
      const value = field(record, key);
      if (value === undefined) throw fail(t('{0} has no usable "{1}".', where, key));
      values[key] = value;
    }
    const name = values.name ?? '';
    if (checkEnvironmentName(name, []) !== undefined) throw fail(t('{0} has no usable "{1}".', where, 'name'));
    if (out.some((env) => sameName(env.name, name))) throw fail(t('the environment {0} is there twice.', JSON.stringify(name)));
    for (const key of ['apiBaseUrl', 'authUrl'] as const) {
      const check = checkEndpointUrl(values[key] ?? '');
      if (!check.ok) throw fail(t('{0} has no usable "{1}".', where, key));
      values[key] = check.url;
    }
    out.push(values as CliEnvironment);
  });
  if (chosen !== undefined && (typeof chosen !== 'string' || !out.some((env) => sameName(env.name, chosen))))
    throw fail(t('"default" does not name one of its environments.'));
  const named = typeof chosen === 'string' ? out.find((env) => sameName(env.name, chosen))?.name : undefined;
  return { environments: out, ...definedOnly({ default: named }) };
}

export function findEnvironment(config: CliConfig, name: string | undefined): CliEnvironment | undefined {
  return name === undefined ? undefined : config.environments.find((env) => sameName(env.name, name));
}

/** The environment --env or OE_ENV names (an unknown name is bad input), else the default one, else none. */
export function selectedEnvironment(config: CliConfig, named: string | undefined, path: string, t: Localize): CliEnvironment | undefined {
  if (named === undefined) return findEnvironment(config, config.default);
  const found = findEnvironment(config, named);
  if (found !== undefined) return found;
  const known = config.environments.map((env) => env.name).join(', ');
  throw new UsageError(
    `${t('There is no environment {0} in {1}.', JSON.stringify(toSingleLine(named, 80)), toSingleLine(path, 300))} ${
      known === '' ? '' : `${t('Known: {0}.', known)} `
    }${t('Run oe auth login --env NAME to add it.')}`,
  );
}

/** The config with `env` added or replaced (same name), default when asked or when there was none. */
export function withEnvironment(config: CliConfig, env: CliEnvironment, makeDefault: boolean): CliConfig {
  const others = config.environments.filter((existing) => !sameName(existing.name, env.name));
  const isDefault = makeDefault || config.default === undefined || sameName(config.default, env.name);
  return { environments: [...others, env], ...definedOnly({ default: isDefault ? env.name : config.default }) };
}

/** Writes the config (mode 0600 in a folder of mode 0700): it names no secret, but who signs in where is the user's business. */
export async function writeConfig(path: string, config: CliConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const ordered = { ...definedOnly({ default: config.default }), environments: config.environments };
  await writeNamedFile(path, `${JSON.stringify(ordered, null, 2)}\n`, { mode: 0o600 });
}
