// The process as a command sees it (CliIo). The language is the one a Unix
// tool takes (LC_ALL, LC_MESSAGES, LANG) over the extension's own l10n
// bundles, so a message reads the same in the terminal as in VS Code.
import type { Localize } from '../core/common/localize';
import type { CliIo } from './cliCommand';
import { languageOf } from './cliLanguage';
import de from '../../l10n/bundle.l10n.de.json';
import zhCn from '../../l10n/bundle.l10n.zh-cn.json';

const BUNDLES: Readonly<Record<string, Readonly<Record<string, string>>>> = { de, 'zh-cn': zhCn };

/** vscode.l10n.t's behaviour over a bundle: the translation when there is one, `{n}` replaced by the arguments. */
export function localizeFor(env: NodeJS.ProcessEnv): Localize {
  const bundle = BUNDLES[languageOf(env)] ?? {};
  return (message, ...args) =>
    (bundle[message] ?? message).replace(/\{(\d+)\}/g, (whole, index: string) => String(args[Number(index)] ?? whole));
}

/** Whether to colour stdout (https://no-color.org: NO_COLOR set and not empty turns it off). */
export function colorFor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  return isTTY && (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb';
}

/** This process's io. */
export function processIo(): CliIo {
  const isTTY = { stdout: process.stdout.isTTY, stderr: process.stderr.isTTY, stdin: process.stdin.isTTY };
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdin: process.stdin,
    isTTY,
    env: process.env,
    cwd: process.cwd(),
    color: colorFor(process.env, isTTY.stdout),
    t: localizeFor(process.env),
  };
}

/** SGR codes for the few styles the tables use; plain text when colour is off. */
export function styler(color: boolean): {
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  dim(text: string): string;
} {
  const wrap = (code: string) => (text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { bold: wrap('1'), red: wrap('31'), green: wrap('32'), dim: wrap('2') };
}

/** JSON for stdout: JSON.stringify, with the characters it leaves raw that a terminal or an editor acts on as \u escapes. */
export function outputJson(value: unknown, indent?: number): string {
  return jsonEscaped(JSON.stringify(value, null, indent));
}

/** JSON text JSON.stringify made (where these characters stand only inside strings), with them escaped as above. */
export function jsonEscaped(json: string): string {
  return json.replace(JSON_RAW, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** DEL, C1, the bidi marks, overrides and isolates, zero-width and line/paragraph separators, the BOM. */
const JSON_RAW = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
