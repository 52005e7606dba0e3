// The process as a command sees it (CliIo). The language is the one a Unix
// tool takes (LC_ALL, LC_MESSAGES, LANG) over the extension's own l10n
// bundles, so a message reads the same in the terminal as in VS Code.
import { spawn } from 'node:child_process';
import type { Localize } from '../core/common/localize';
import { SERVER_TEXT_LIMITS } from '../core/client/model';
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

/** The pager's command line: OE_PAGER, else PAGER, else `less -FRX`; none when the one that counts is empty or `cat`. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = (env['OE_PAGER'] ?? env['PAGER'] ?? 'less -FRX').trim();
  return chosen === '' || chosen === 'cat' ? undefined : chosen;
}

/** A shell's "command not found" / "not executable" (sh 127 and 126, cmd.exe 9009): the pager never showed anything. */
const NOT_STARTED = new Set([126, 127, 9009]);

/**
 * `text` through the pager when stdout is a terminal and the text is taller than it; else, or when the pager
 * cannot be started, written directly. The pager is the user's own command line, run by their shell as git runs it.
 */
async function pageOnTerminal(text: string, env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<void> {
  const command = pagerCommand(env);
  const rows = process.stdout.rows || Number(env['LINES']) || 24;
  if (!process.stdout.isTTY || command === undefined || text.split('\n').length <= rows) {
    write(text);
    return;
  }
  const shown = await new Promise<boolean>((resolve) => {
    // less without options of the user's own would clear the screen and wait at the end: git's defaults.
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', LV: '-c', ...env } });
    child.once('error', () => {
      resolve(false);
    });
    child.once('close', (code) => {
      resolve(code === null || !NOT_STARTED.has(code));
    });
    // A reader who quits before the end closes the pipe: that is no error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
  if (!shown) write(text);
}

/** This process's io. */
export function processIo(): CliIo {
  const isTTY = { stdout: process.stdout.isTTY, stderr: process.stderr.isTTY, stdin: process.stdin.isTTY };
  const stdout = (text: string): void => void process.stdout.write(text);
  return {
    stdout,
    page: (text) => pageOnTerminal(text, process.env, stdout),
    stderr: (text) => process.stderr.write(text),
    stdin: process.stdin,
    isTTY,
    env: process.env,
    cwd: process.cwd(),
    color: colorFor(process.env, isTTY.stdout),
    t: localizeFor(process.env),
  };
}

/**
 * The longest server message a table row shows: on a terminal 200 characters, so one row wraps over a few lines
 * at most and the table stays readable; elsewhere the whole, as validation bounded it (SERVER_TEXT_LIMITS).
 */
export function messageWidth(io: CliIo): number {
  return io.isTTY.stdout ? 200 : SERVER_TEXT_LIMITS.message;
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
