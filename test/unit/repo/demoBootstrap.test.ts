// The demo's bootstrap (scripts/demo/bootstrap/extension.js) said "Demo
// sign-in failed" when VS Code refused to open the sample file because the
// user closed the Workspace Trust editor just then, although the sign-in
// had worked (issue 34, item 6). Activated here as VS Code activates it,
// over a recording `vscode` module.
import * as assert from 'node:assert/strict';
import Module from 'node:module';
import { join } from 'node:path';

interface Bootstrap {
  activate(context: unknown): Promise<void>;
}

const root = join(__dirname, '..', '..', '..', '..');
const DEMO = { signIn: { apiBaseUrl: 'http://127.0.0.1:1/api' }, pin: ['MX-4711-A0023'], open: 'config/line3.yaml' };
const IN_THE_MEANTIME = 'Could NOT open editor for "file:///demo/config/line3.yaml" because another editor opened in the meantime.';

/** A `vscode` that records what the demo did and said; `opens` answers each showTextDocument in turn (an Error: refused). */
function recordingVscode(options: { signIn?: Error; opens?: (Error | undefined)[] } = {}) {
  const said: string[] = [];
  const steps: string[] = [];
  const opens = [...(options.opens ?? [])];
  const vscode = {
    extensions: { getExtension: () => ({ activate: () => Promise.resolve() }) },
    commands: {
      executeCommand: (command: string): Promise<void> => {
        steps.push(command);
        return command === 'onboardingEvents.signIn' && options.signIn ? Promise.reject(options.signIn) : Promise.resolve();
      },
    },
    workspace: { workspaceFolders: [{ uri: { path: '/demo' } }] },
    Uri: { joinPath: (base: { path: string }, path: string) => ({ path: `${base.path}/${path}` }) },
    window: {
      showTextDocument: (uri: { path: string }): Promise<void> => {
        steps.push(`open ${uri.path}`);
        const refused = opens.shift();
        return refused ? Promise.reject(refused) : Promise.resolve();
      },
      showErrorMessage: (message: string) => said.push(`error: ${message}`),
      showWarningMessage: (message: string) => said.push(`warning: ${message}`),
    },
  };
  return { vscode, said, steps };
}

describe('the demo bootstrap: signing in and opening the sample are separate steps', () => {
  const moduleApi = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = moduleApi._resolveFilename;
  const fakePath = join(root, 'fake-vscode-for-the-demo-bootstrap.js');
  let current: unknown;
  let bootstrap: Bootstrap;

  before(() => {
    moduleApi._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
      return request === 'vscode' ? fakePath : resolve.call(this, request, ...rest);
    };
    const exports = new Proxy({}, { get: (_target, name) => (current as Record<string | symbol, unknown>)[name] });
    require.cache[fakePath] = { id: fakePath, filename: fakePath, loaded: true, exports } as NodeJS.Module;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bootstrap is a plain CommonJS extension, loaded as VS Code loads it
    bootstrap = require(join(root, 'scripts', 'demo', 'bootstrap', 'extension.js')) as Bootstrap;
    process.env['OE_DEMO_SIGN_IN'] = JSON.stringify(DEMO);
  });

  after(() => {
    moduleApi._resolveFilename = resolve;
    Reflect.deleteProperty(require.cache, fakePath);
    Reflect.deleteProperty(process.env, 'OE_DEMO_SIGN_IN');
  });

  /** Activates the bootstrap in a fresh profile over `vscode`. */
  async function activate(vscode: unknown): Promise<void> {
    current = vscode;
    const state = new Map<string, unknown>();
    await bootstrap.activate({
      globalState: {
        get: (key: string) => state.get(key),
        update: (key: string, value: unknown) => {
          state.set(key, value);
          return Promise.resolve();
        },
      },
    });
  }

  it('another editor opening in the meantime: the sample is opened again, and nothing says the sign-in failed', async () => {
    const { vscode, said, steps } = recordingVscode({ opens: [new Error(IN_THE_MEANTIME)] });
    await activate(vscode);
    assert.deepEqual(said, []);
    assert.deepEqual(steps, [
      'onboardingEvents.signIn',
      'onboardingEvents.addMachine',
      'open /demo/config/line3.yaml',
      'open /demo/config/line3.yaml',
      'onboardingEvents.machines.focus',
    ]);
  });

  it('the sample refused twice: says that the file could not be opened, not that the sign-in failed', async () => {
    const { vscode, said } = recordingVscode({ opens: [new Error(IN_THE_MEANTIME), new Error(IN_THE_MEANTIME)] });
    await activate(vscode);
    assert.equal(said.length, 1, said.join('\n'));
    assert.doesNotMatch(said[0] ?? '', /sign-in failed/);
    assert.match(
      said[0] ?? '',
      /^warning: Demo: signed in; the sample file config\/line3\.yaml could not be opened: Could NOT open editor/,
    );
  });

  it('a sign-in that fails says so, and nothing else is tried', async () => {
    const { vscode, said, steps } = recordingVscode({ signIn: new Error('token request refused') });
    await activate(vscode);
    assert.deepEqual(said, ['error: Demo sign-in failed: token request refused']);
    assert.deepEqual(steps, ['onboardingEvents.signIn']);
  });
});
