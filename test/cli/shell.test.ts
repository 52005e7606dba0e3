// What only a process shows of oe at a shell: real bash, zsh and fish load
// `oe completion` and complete by asking the built oe on PATH; on a terminal a
// long table goes through $PAGER and a message is cut to fit, in a pipe neither.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { OE, runOe, runOeInTerminal, signedInEnv, tempFolder } from '../support/cli/runOe';

/** A folder with `oe` in it, as `npm install -g` puts it on PATH: the built dist/oe.js under this Node. */
function oeOnPath(): string {
  const bin = tempFolder('bin');
  writeFileSync(join(bin, 'oe'), `#!/bin/sh\nexec '${process.execPath}' '${OE}' "$@"\n`);
  chmodSync(join(bin, 'oe'), 0o755);
  return bin;
}

/** A working folder whose file names two machines, as a test rig's list does. */
function rigFolder(): string {
  const dir = tempFolder('rig');
  writeFileSync(join(dir, 'rig.yaml'), `machines:\n  - ${TEST_SERIALS.started}\n  - ${TEST_SERIALS.onboarded}\n`);
  return dir;
}

/** Runs `program args…` in `cwd` with oe on PATH and a HOME of its own; its stdout, failing the test on a non-zero exit. */
function shell(program: string, args: readonly string[], cwd: string): string {
  const home = tempFolder('shell-home');
  const run = spawnSync(program, args, {
    cwd,
    env: { PATH: `${oeOnPath()}:${process.env['PATH'] ?? ''}`, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(run.status, 0, `${program} ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run.stdout;
}

/** A bash word, single-quoted. */
const q = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * bash's completion of `words` (the last one being typed), as readline calls it: the function `complete -p oe`
 * names, with COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set and the command, word and previous word as arguments.
 */
function bashCompletes(words: readonly string[], cwd: string): { registered: string; candidates: string[] } {
  const line = words.join(' ');
  const script = `
source <(oe completion bash) || exit 9
registered=$(complete -p oe) || exit 8
function=$(sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p' <<< "$registered")
COMP_WORDS=(${words.map(q).join(' ')})
COMP_CWORD=${words.length - 1}
COMP_LINE=${q(line)}
COMP_POINT=${line.length}
COMPREPLY=()
"$function" oe ${q(words.at(-1) ?? '')} ${q(words.at(-2) ?? '')}
echo "$registered"
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  const [registered = '', ...candidates] = shell('bash', ['--norc', '--noprofile', '-c', script], cwd).split('\n');
  return { registered, candidates: candidates.filter((word) => word !== '') };
}

describe('oe completion in real shells', function () {
  this.timeout(60_000);

  it('bash: registers for oe with file names as the fallback, and completes commands, options, shells and serial numbers', () => {
    const dir = rigFolder();
    const first = bashCompletes(['oe', 'ev'], dir);
    assert.match(first.registered, /^complete -o default -F \S+ oe$/);
    assert.deepEqual(first.candidates, ['events']);
    assert.deepEqual(bashCompletes(['oe', 'events', '--js'], dir).candidates, ['--json']);
    assert.ok(bashCompletes(['oe', 'watch', '--'], dir).candidates.includes('--request-timeout'), 'a global option');
    assert.deepEqual(bashCompletes(['oe', 'completion', ''], dir).candidates, ['bash', 'zsh', 'fish']);
    assert.deepEqual(bashCompletes(['oe', 'events', ''], dir).candidates, [TEST_SERIALS.started, TEST_SERIALS.onboarded]);
    assert.deepEqual(bashCompletes(['oe', 'watch', TEST_SERIALS.started, 'MX'], dir).candidates, [TEST_SERIALS.onboarded]);
    // Paths: oe offers none, so bash's default (file names) completes them.
    assert.deepEqual(bashCompletes(['oe', 'check', ''], dir).candidates, []);
  });

  it('zsh: the script loads (compinit included), registers _oe for oe and hands compadd the candidates', () => {
    const dir = rigFolder();
    const script = (words: readonly string[]): string => `
source <(oe completion zsh) || exit 9
print -r -- "registered: $_comps[oe]"
compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }
_files() { print -r -- "(files)" }
words=(${words.map(q).join(' ')})
CURRENT=${words.length}
_oe
`;
    assert.equal(shell('zsh', ['-f', '-c', script(['oe', 'ev'])], dir), 'registered: _oe\nevents\n');
    assert.equal(shell('zsh', ['-f', '-c', script(['oe', 'events', '--js'])], dir), 'registered: _oe\n--json\n');
    assert.equal(
      shell('zsh', ['-f', '-c', script(['oe', 'events', ''])], dir),
      `registered: _oe\n${TEST_SERIALS.started}\n${TEST_SERIALS.onboarded}\n`,
    );
    assert.equal(shell('zsh', ['-f', '-c', script(['oe', 'check', ''])], dir), 'registered: _oe\n(files)\n');
  });

  it('fish: the script loads and `complete --do-complete` offers what oe answers, file names when it has nothing', () => {
    const dir = rigFolder();
    const complete = (line: string): string[] =>
      shell('fish', ['--no-config', '-c', `oe completion fish | source; or exit 9; complete --do-complete ${q(line)}`], dir)
        .split('\n')
        .filter((word) => word !== '')
        .map((word) => word.split('\t')[0] ?? '');
    assert.deepEqual(complete('oe ev'), ['events']);
    assert.deepEqual(complete('oe events --js'), ['--json']);
    assert.deepEqual(complete('oe events '), [TEST_SERIALS.onboarded, TEST_SERIALS.started].sort());
    assert.deepEqual(complete('oe check r'), ['rig.yaml']);
  });
});

describe('oe on a terminal: the pager and the message width', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  const message = `${'a long message '.repeat(20)}END`;
  before(async () => {
    api = await startFakeApi();
    const events = Array.from({ length: 40 }, (_, index) =>
      makeEvent({
        type: 'DEVICE_REGISTERED',
        message: index === 0 ? message : `step ${index}`,
        timestamp: Date.UTC(2025, 0, 15, 9, index),
      }),
    );
    api.setMachineEvents(TEST_SERIALS.empty, events);
  });
  after(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };
  const PAGER = "sed 's/^/paged: /'";
  const tableLines = (text: string): string[] => text.split(/\r?\n/).filter((line) => /DEVICE_REGISTERED|TIME \(UTC\)/.test(line));

  it('a table taller than the terminal goes through $PAGER; OE_PAGER wins; empty or cat prints it directly', async () => {
    const paged = await runOeInTerminal(['events', TEST_SERIALS.empty], { env: { ...env(), PAGER } });
    assert.equal(paged.code, 0, paged.stdout);
    const lines = tableLines(paged.stdout);
    assert.equal(lines.length, 41, paged.stdout);
    assert.ok(
      lines.every((line) => line.startsWith('paged: ')),
      `every line through the pager:\n${lines.slice(0, 3).join('\n')}`,
    );
    const ours = await runOeInTerminal(['events', TEST_SERIALS.empty], { env: { ...env(), PAGER: 'cat', OE_PAGER: PAGER } });
    assert.ok(
      tableLines(ours.stdout).every((line) => line.startsWith('paged: ')),
      'OE_PAGER over PAGER',
    );
    for (const off of [{ PAGER: 'cat' }, { PAGER: '' }, { PAGER, OE_PAGER: '' }]) {
      const run = await runOeInTerminal(['events', TEST_SERIALS.empty], { env: { ...env(), ...off } });
      assert.equal(run.code, 0);
      const shown = tableLines(run.stdout);
      assert.equal(shown.length, 41, JSON.stringify(off));
      assert.ok(!shown.some((line) => line.startsWith('paged: ')), `no pager with ${JSON.stringify(off)}`);
    }
  });

  it('a pager that cannot start: the table is printed directly, exit 0; a short table and a pipe never page', async () => {
    const missing = await runOeInTerminal(['events', TEST_SERIALS.empty], { env: { ...env(), PAGER: '/nonexistent/pager -R' } });
    assert.equal(missing.code, 0, missing.stdout);
    assert.equal(tableLines(missing.stdout).length, 41, missing.stdout);
    const short = await runOeInTerminal(['events', TEST_SERIALS.onboarded], { env: { ...env(), PAGER } });
    assert.doesNotMatch(short.stdout, /paged: /, 'three events fit on the screen');
    const pipe = await runOe(['events', TEST_SERIALS.empty], { env: { ...env(), PAGER } });
    assert.equal(pipe.code, 0);
    assert.doesNotMatch(pipe.stdout, /paged: /, 'stdout is no terminal');
  });

  it('a message is cut to 200 characters on a terminal, whole in a pipe', async () => {
    const terminal = await runOeInTerminal(['events', TEST_SERIALS.empty], { env: { ...env(), PAGER: 'cat' } });
    assert.ok(!terminal.stdout.includes('END'), 'cut on a terminal');
    assert.match(terminal.stdout, /DEVICE_REGISTERED +a long message [^\n]*…/);
    const pipe = await runOe(['events', TEST_SERIALS.empty], { env: env() });
    assert.ok(pipe.stdout.includes(message.trim()), 'whole in a pipe');
  });
});
