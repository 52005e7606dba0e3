// The repository opens like every extension repository: F5 starts the
// extension against the demo API, the watch task reports through the
// $esbuild-watch problem matcher, @vscode/test-cli finds the integration
// tests, and CI runs every tier on Linux, Windows and macOS. These files are
// only ever read by VS Code or GitHub, so this test reads them the same way
// (JSONC with comments, YAML) and checks what makes them work.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { DEMO_CREDENTIALS, DEMO_SERIALS } from '../../support/fakeApi/demoData';
import { isRecord } from '../../../src/core/common/guards';

const root = join(__dirname, '..', '..', '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

function jsonc(file: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(read(file), errors, { allowTrailingComma: true });
  assert.deepEqual(
    errors.map((e) => `${printParseErrorCode(e.error)} at ${e.offset}`),
    [],
    `${file} parses`,
  );
  assert.ok(isRecord(value), `${file} holds an object`);
  return value;
}

function records(value: unknown, what: string): Record<string, unknown>[] {
  assert.ok(Array.isArray(value), `${what} is a list`);
  return value.map((item, i) => {
    assert.ok(isRecord(item), `${what}[${i}] is an object`);
    return item;
  });
}

function strings(value: unknown, what: string): string[] {
  assert.ok(Array.isArray(value), `${what} is a list`);
  return value.map((v, i) => {
    assert.ok(typeof v === 'string', `${what}[${i}] is a string`);
    return v;
  });
}

const manifest = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: Record<string, string> };
const launch = records(jsonc('.vscode/launch.json')['configurations'], 'launch configurations');
const tasks = records(jsonc('.vscode/tasks.json')['tasks'], 'tasks');
const taskByLabel = new Map(tasks.map((t) => [String(t['label']), t]));

/** `${workspaceFolder}/x` → the file it names; compiled test entries map back to their source. */
function existsInRepo(path: string): boolean {
  const relative = path.replace('${workspaceFolder}', '').replace(/^\//, '');
  const source = relative.replace(/^out\/(test\/.*?)(\.js)?$/, '$1.ts');
  return existsSync(join(root, relative)) || existsSync(join(root, source));
}

describe('the repository opens like every extension repository', () => {
  describe('.vscode/launch.json', () => {
    it('has "Run Extension (demo API)" and "Extension Tests" extension-host configurations', () => {
      const names = launch.map((c) => c['name']);
      assert.ok(names.includes('Run Extension (demo API)'));
      assert.ok(names.includes('Extension Tests'));
      for (const config of launch) assert.equal(config['type'], 'extensionHost', `${String(config['name'])} starts an extension host`);
    });

    it('points every development path, tests path and folder at something in the repository', () => {
      for (const config of launch) {
        const args = strings(config['args'], `${String(config['name'])}.args`);
        assert.ok(args.includes('--extensionDevelopmentPath=${workspaceFolder}'), `${String(config['name'])} loads this extension`);
        for (const arg of args) {
          const path =
            /^--extension(?:Development|Tests)Path=(.*)$/.exec(arg)?.[1] ?? (arg.startsWith('${workspaceFolder}') ? arg : undefined);
          if (path !== undefined) assert.ok(existsInRepo(path), `${String(config['name'])}: ${arg} exists`);
        }
        for (const pattern of strings(config['outFiles'], 'outFiles')) assert.match(pattern, /^\$\{workspaceFolder\}\/(dist|out)\//);
      }
    });

    it('names in preLaunchTask a task that exists, and every dependsOn names one too', () => {
      for (const config of launch) {
        const task = config['preLaunchTask'];
        assert.ok(
          typeof task === 'string' && taskByLabel.has(task),
          `${String(config['name'])}: preLaunchTask "${String(task)}" is a task`,
        );
      }
      for (const task of tasks) {
        const deps = task['dependsOn'] === undefined ? [] : strings(task['dependsOn'], 'dependsOn');
        for (const dep of deps) assert.ok(taskByLabel.has(dep), `${String(task['label'])} depends on "${dep}", a task`);
      }
    });

    it('signs the demo configuration in to the port the fake-API task serves, with the demo credentials', () => {
      const demo = launch.find((c) => c['name'] === 'Run Extension (demo API)');
      assert.ok(demo && isRecord(demo['env']));
      const raw = demo['env']['OE_DEMO_SIGN_IN'];
      assert.ok(typeof raw === 'string');
      const signIn = JSON.parse(raw) as { signIn: Record<string, string>; pin: string[] };
      const fakeTask = taskByLabel.get('fake API (demo data)');
      const port = /--port (\d+)/.exec(String(fakeTask?.['command']))?.[1];
      assert.ok(port, 'the fake-API task runs on a fixed port');
      assert.equal(signIn.signIn['apiBaseUrl'], `http://127.0.0.1:${port}`);
      assert.equal(signIn.signIn['authUrl'], `http://127.0.0.1:${port}/oauth`);
      const { clientId, clientSecret, username, password } = signIn.signIn;
      assert.deepEqual({ clientId, clientSecret, username, password }, { ...DEMO_CREDENTIALS });
      for (const serial of signIn.pin) assert.ok((Object.values(DEMO_SERIALS) as string[]).includes(serial), `${serial} is a demo machine`);
      assert.ok(existsInRepo('scripts/demo/bootstrap/package.json'));
    });
  });

  describe('.vscode/tasks.json', () => {
    it('watches with the $esbuild-watch problem matcher, whose lines esbuild.mjs prints', () => {
      const watch = taskByLabel.get('npm: watch');
      assert.ok(watch);
      assert.equal(watch['script'], 'watch');
      assert.equal(watch['isBackground'], true);
      assert.equal(watch['problemMatcher'], '$esbuild-watch');
      assert.match(manifest.scripts['watch'] ?? '', /esbuild\.mjs --watch/);
      const esbuild = read('esbuild.mjs');
      for (const line of [
        "'[watch] build started'",
        "'[watch] build finished'",
        '`✘ [ERROR] ${text}`',
        '`    ${location.file}:${location.line}:${location.column}:`',
      ]) {
        assert.ok(esbuild.includes(line), `esbuild.mjs prints ${line}`);
      }
    });

    it('runs only npm scripts that exist, and every task has a problem matcher', () => {
      for (const task of tasks) {
        if (task['type'] === 'npm') assert.ok(String(task['script']) in manifest.scripts, `npm script ${String(task['script'])} exists`);
        assert.ok('problemMatcher' in task, `${String(task['label'])} sets problemMatcher`);
      }
    });

    it('knows when the fake API is ready from the line the fake API prints', () => {
      const task = taskByLabel.get('fake API (demo data)');
      assert.ok(task && task['isBackground'] === true);
      const matcher = task['problemMatcher'];
      assert.ok(isRecord(matcher) && isRecord(matcher['background']));
      const ends = new RegExp(String(matcher['background']['endsPattern']));
      const printed = [...read('test/support/fakeApi/cli.ts').matchAll(/console\.log\('([^']*)'\)/g)].map((m) => m[1] ?? '');
      assert.ok(
        printed.some((line) => ends.test(line)),
        `the fake API prints a line matching ${ends.source}`,
      );
    });
  });

  it('.vscode/extensions.json recommends the problem matchers the tasks use', () => {
    const recommended = strings(jsonc('.vscode/extensions.json')['recommendations'], 'recommendations');
    assert.ok(recommended.includes('connor4312.esbuild-problem-matchers'));
  });

  it('.vscode-test.mjs gives @vscode/test-cli the integration tests and the test workspace', async () => {
    const loaded: unknown = await import(pathToFileURL(join(root, '.vscode-test.mjs')).href);
    assert.ok(isRecord(loaded));
    const configs = records(loaded['default'], '.vscode-test.mjs default export');
    const integration = configs.find((c) => c['label'] === 'integration');
    assert.ok(integration);
    const files = strings(integration['files'], 'files');
    assert.ok(files.includes('out/test/integration/**/*.test.js'));
    // The compiled tests this unit test runs beside are the ones the globs name.
    assert.ok(existsSync(join(root, 'out', 'test', 'integration', 'activation.test.js')));
    assert.ok(existsSync(join(root, String(integration['workspaceFolder']))));
  });

  describe('.github/workflows/ci.yml', () => {
    const workflow: unknown = parseYaml(read('.github/workflows/ci.yml'));
    const job = (): Record<string, unknown> => {
      assert.ok(isRecord(workflow) && isRecord(workflow['jobs']) && isRecord(workflow['jobs']['test']));
      return workflow['jobs']['test'];
    };
    const runs = (): string[] => records(job()['steps'], 'steps').map((s) => String(s['run'] ?? s['uses']));

    it('runs on pushes and pull requests, on Linux, Windows and macOS, with the downloaded VS Code', () => {
      assert.ok(isRecord(workflow) && isRecord(workflow['on']));
      assert.ok('push' in workflow['on'] && 'pull_request' in workflow['on']);
      const strategy = job()['strategy'];
      assert.ok(isRecord(strategy) && isRecord(strategy['matrix']));
      assert.deepEqual(
        strings(strategy['matrix']['os'], 'matrix.os')
          .map((os) => os.replace(/-.*/, ''))
          .sort(),
        ['macos', 'ubuntu', 'windows'],
      );
      assert.equal(job()['runs-on'], '${{ matrix.os }}');
      assert.ok(isRecord(job()['env']) && (job()['env'] as Record<string, unknown>)['OE_VSCODE'] === 'download');
    });

    it('installs with npm ci on the .nvmrc Node, then runs lint, the unit tier and the integration tier (xvfb on Linux)', () => {
      const steps = runs();
      const setupNode = records(job()['steps'], 'steps').find((s) => String(s['uses']).startsWith('actions/setup-node@'));
      assert.ok(setupNode && isRecord(setupNode['with']) && setupNode['with']['node-version-file'] === '.nvmrc');
      const order = ['npm ci', 'npm run lint', 'npm run test:unit', 'xvfb-run -a npm run test:integration'].map((cmd) =>
        steps.indexOf(cmd),
      );
      assert.ok(
        order.every((i) => i >= 0),
        `steps: ${steps.join(' | ')}`,
      );
      assert.deepEqual(
        [...order].sort((a, b) => a - b),
        order,
      );
      assert.ok(steps.includes('npm run test:integration'), 'Windows and macOS run the integration tier without xvfb');
      for (const script of ['lint', 'test:unit', 'test:integration']) assert.ok(script in manifest.scripts, `npm run ${script} exists`);
    });

    it('uploads the .vsix the package script writes', () => {
      const upload = records(job()['steps'], 'steps').find((s) => String(s['uses']).startsWith('actions/upload-artifact@'));
      assert.ok(upload && isRecord(upload['with']));
      const out = /--out (\S+)/.exec(manifest.scripts['package'] ?? '')?.[1];
      assert.equal(upload['with']['path'], out);
    });
  });

  it('builds the production bundle before vsce packages, and names the Node it is developed on', () => {
    assert.equal(manifest.scripts['vscode:prepublish'], 'node esbuild.mjs --production');
    const nvmrc = read('.nvmrc').trim();
    const minimum = /^>=(\d+)/.exec(manifest.engines['node'] ?? '')?.[1];
    assert.ok(minimum, 'engines.node is set');
    assert.ok(Number(nvmrc) >= Number(minimum), `.nvmrc (${nvmrc}) satisfies engines.node (${String(manifest.engines['node'])})`);
  });
});
