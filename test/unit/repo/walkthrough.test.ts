// The first-run walkthrough (contributes.walkthroughs): every picture and page
// it shows is in the repository and in the package, and every button and
// completion event names a command or context key that exists.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, CONTEXT_KEYS, VIEWS } from '../../../src/extension/workbench/constants';

const root = join(__dirname, '..', '..', '..', '..');

interface Step {
  id: string;
  title: string;
  description: string;
  media: { image?: string; altText?: string; markdown?: string };
  completionEvents?: string[];
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { walkthroughs?: { id: string; steps: Step[] }[]; configuration: { properties: Record<string, unknown> } };
};
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const steps = manifest.contributes.walkthroughs?.flatMap((w) => w.steps) ?? [];
const text = (value: string): string => nls[/^%(.+)%$/.exec(value)?.[1] ?? ''] ?? value;

/** Commands a walkthrough may run: ours, the view's focus command, and VS Code's own settings editor. */
const knownCommands = new Set<string>([...Object.values(COMMANDS), `${VIEWS.machines}.focus`, 'workbench.action.openSettings']);

describe('the Get Started walkthrough', () => {
  it('walks through sign-in, pinning, the hover, the details and the settings', () => {
    assert.deepEqual(
      steps.map((s) => s.id),
      ['signIn', 'pinMachine', 'hover', 'details', 'settings'],
    );
    for (const step of steps) {
      assert.ok(text(step.title) !== step.title && text(step.description) !== step.description, `${step.id} is localized`);
      if (step.media.image)
        assert.ok(step.media.altText && text(step.media.altText) !== step.media.altText, `${step.id} describes its picture`);
    }
  });

  it('shows only pictures and pages that exist and that the package ships', function () {
    // `npx vsce ls` starts Node twice; on a busy 2-core machine that alone can pass mocha's 10 s.
    this.timeout(60_000);
    const media = steps.flatMap((s) => [s.media.image, s.media.markdown].filter((f): f is string => f !== undefined));
    assert.equal(media.length, steps.length);
    // `vsce ls` applies .vscodeignore exactly as `vsce package` does (npx is a .cmd on Windows: a shell runs it).
    const shipped = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      shell: process.platform === 'win32',
    }).split(/\r?\n/);
    for (const file of media) {
      assert.ok(existsSync(join(root, file)), `${file} exists`);
      assert.ok(shipped.includes(file), `${file} is in the package`);
    }
  });

  it('runs only commands that exist, completes on context keys and settings that exist', () => {
    for (const step of steps) {
      const linked = [...text(step.description).matchAll(/\(command:([\w.]+)/g)].map((m) => m[1] ?? '');
      for (const command of linked) assert.ok(knownCommands.has(command), `${step.id}: button runs ${command}`);
      for (const event of step.completionEvents ?? []) {
        const [kind, value = ''] = event.split(/:(.*)/s);
        if (kind === 'onCommand') assert.ok(knownCommands.has(value), `${step.id}: ${event}`);
        else if (kind === 'onContext') assert.ok((Object.values(CONTEXT_KEYS) as string[]).includes(value), `${step.id}: ${event}`);
        else if (kind === 'onSettingChanged')
          assert.ok(
            Object.keys(manifest.contributes.configuration.properties).some((k) => k.startsWith(value)),
            `${step.id}: ${event}`,
          );
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
    }
  });

  it('names, on its settings page, only settings that exist', () => {
    const page = readFileSync(join(root, 'media', 'walkthrough', 'settings.md'), 'utf8');
    const named = [...page.matchAll(/`(onboardingEvents\.[\w.]+)`/g)].map((m) => m[1] ?? '');
    assert.ok(named.length >= 5);
    for (const setting of named) assert.ok(setting in manifest.contributes.configuration.properties, `${setting} is a setting`);
  });
});
