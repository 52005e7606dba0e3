// How oe starts: dist/oe.js is a small entry that answers --version and --help
// by itself, in the user's language, with exactly the program's own text, and
// loads the program (dist/oeProgram.js) only for a command; the MCP SDK
// (dist/oeMcp.js) only for `oe mcp`.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, runOe, tempFolder } from '../support/cli/runOe';

const LOCALES = ['C', 'de_DE.UTF-8', 'zh_CN.UTF-8', 'de_AT', 'zh_TW.UTF-8'];
const QUICK = ['--version', '-V', '--help', '-h', 'help'];

/** The program itself (dist/oeProgram.js) run as a process with these arguments, without the entry. */
async function program(args: readonly string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  const script = join(tempFolder('program'), 'program.js');
  writeFileSync(script, `require(${JSON.stringify(join(ROOT, 'dist', 'oeProgram.js'))}).runProgram(process.argv.slice(2));\n`);
  return promisify(execFile)(process.execPath, [script, ...args], { env, encoding: 'utf8' });
}

describe('oe: its start', function () {
  this.timeout(60_000);

  it("answers --version and --help in each language with the program's own text, and the same exit code", async () => {
    for (const LANG of LOCALES)
      for (const argument of QUICK) {
        const env = { PATH: process.env['PATH'] ?? '', LANG };
        const [entry, own] = await Promise.all([runOe([argument], { env: { LANG } }), program([argument], env)]);
        assert.equal(entry.code, 0, `LANG=${LANG} oe ${argument}: ${entry.stderr}`);
        assert.equal(entry.stdout, own.stdout, `LANG=${LANG} oe ${argument}`);
        assert.equal(entry.stderr, own.stderr, `LANG=${LANG} oe ${argument}`);
      }
  });

  it('oe.js alone, without the program beside it, answers --version and --help: nothing else is loaded for them', async () => {
    const alone = join(tempFolder('alone'), 'oe.js');
    copyFileSync(join(ROOT, 'dist', 'oe.js'), alone);
    const run = promisify(execFile);
    const env = { PATH: process.env['PATH'] ?? '', LANG: 'de_DE.UTF-8' };
    const [version, help, own] = await Promise.all([
      run(process.execPath, [alone, '--version'], { env, encoding: 'utf8' }),
      run(process.execPath, [alone, '--help'], { env, encoding: 'utf8' }),
      program(['--help'], env),
    ]);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.equal(help.stdout, own.stdout);
    // Any other run needs the program: the lone copy cannot load it.
    await assert.rejects(run(process.execPath, [alone, 'events', '--help'], { env, encoding: 'utf8' }), /oeProgram\.js/);
  });
});
