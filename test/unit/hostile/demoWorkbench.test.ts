// Hostile corpus: the local VS Code that `npm run demo` (and every test run)
// starts on 127.0.0.1. code-server's origin check compares Origin with Host,
// so a web page that rebinds its DNS name to 127.0.0.1, or any other local
// user, reaches whatever that port serves: without a password, a full VS Code
// with a terminal, as the developer. Read from the launch description, so no
// code-server is started here. Add a row.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Launch {
  readonly args: readonly string[];
  readonly configFile: string;
  readonly config: string;
}

interface LaunchOptions {
  readonly scratch: string;
  readonly port: number;
  readonly password: string;
  readonly workspaceTrust?: boolean;
  readonly testDriver?: boolean;
}

interface Workbench {
  readonly defaultUserSettings: Readonly<Record<string, unknown>>;
  codeServerLaunch(options: LaunchOptions): Launch;
  newPassword(): string;
}

interface DemoLaunch {
  readonly demoCodeServerOptions: {
    readonly workspaceTrust: boolean;
    readonly testDriver: boolean;
    readonly userSettings?: Readonly<Record<string, unknown>>;
  };
  demoAddressLines(server: { url: string; password: string }, folder: string): { url: string; text: string };
}

const root = join(__dirname, '..', '..', '..', '..');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;

/** The value after `flag` in `args`, if the flag is there. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

describe('hostile input: the local VS Code of the demo and the tests', () => {
  let workbench: Workbench;
  let demo: DemoLaunch;

  before(async () => {
    workbench = await load<Workbench>('scripts/vscode/workbench.mjs');
    demo = await load<DemoLaunch>('scripts/demo/launch.mjs');
  });

  const password = 'Aq3-example-password_for-this-test';

  it("the demo's code-server asks for a password, never runs with --auth none", () => {
    const launch = workbench.codeServerLaunch({ scratch: '/scratch', port: 4000, password, ...demo.demoCodeServerOptions });
    assert.equal(flagValue(launch.args, '--auth'), 'password');
    assert.match(launch.config, /^auth: password$/m);
    assert.ok(launch.config.includes(`password: "${password}"`), 'the password is in the owner-only config file');
    assert.equal(flagValue(launch.args, '--config'), launch.configFile);
  });

  it('the password never appears on the command line (other local users can read it in ps)', () => {
    const launch = workbench.codeServerLaunch({ scratch: '/scratch', port: 4000, password, ...demo.demoCodeServerOptions });
    assert.equal(
      launch.args.some((arg) => arg.includes(password)),
      false,
    );
  });

  it("the demo's workbench keeps workspace trust on and shows notifications (no smoke-test driver)", () => {
    const { args } = workbench.codeServerLaunch({ scratch: '/scratch', port: 4000, password, ...demo.demoCodeServerOptions });
    assert.equal(args.includes('--disable-workspace-trust'), false);
    assert.equal(args.includes('enable-smoke-test-driver'), false);
  });

  it("the demo's workbench keeps VS Code's AI features on, so its MCP server list (and Onboarding Events in it) is there", () => {
    assert.equal(workbench.defaultUserSettings['chat.disableAIFeatures'], true, "the tests' workbenches turn them off");
    const settings = { ...workbench.defaultUserSettings, ...demo.demoCodeServerOptions.userSettings };
    assert.equal(settings['chat.disableAIFeatures'], false);
  });

  it("the tests' throwaway workbench asks for a password too, and listens on 127.0.0.1 only", () => {
    const { args } = workbench.codeServerLaunch({ scratch: '/scratch', port: 4001, password });
    assert.equal(flagValue(args, '--auth'), 'password');
    assert.equal(flagValue(args, '--bind-addr'), '127.0.0.1:4001');
  });

  it('each run gets its own unguessable password', () => {
    const passwords = new Set(Array.from({ length: 20 }, () => workbench.newPassword()));
    assert.equal(passwords.size, 20);
    for (const generated of passwords) assert.match(generated, /^[A-Za-z0-9_-]{32,}$/);
  });

  it('the printed address comes with the password its login page asks for', () => {
    const { url, text } = demo.demoAddressLines({ url: 'http://127.0.0.1:4000', password }, '/work/demo workspace');
    assert.equal(url, 'http://127.0.0.1:4000/?folder=%2Fwork%2Fdemo+workspace');
    assert.ok(text.includes(url));
    assert.ok(text.includes(password));
  });
});
