// Watch Onboarding in the real extension host: two machines whose onboarding
// the fake API plays (events appearing over a few seconds, one ending
// onboarded, one failed) are watched with a 1-second first interval until
// both outcomes; the notifications, the rows and the view's badge are read
// through the test hooks, the status bar item as the test's user saw it
// created (support/user.ts). A link's watch=1 is asked
// about like any request from outside. (That a second window does not notify
// twice: test/integration/windows/twoWindows.windows.ts, with a real second
// window in a tier of its own, and the unit test of
// the claims, test/unit/watch/watchList.test.ts.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RenderedNode } from '../support/machinesView';
import {
  makeEvent,
  onboardingScript,
  playOnboarding,
  startFakeApi,
  TEST_CREDENTIALS,
  TEST_SERIALS,
  type FakeApi,
  type OnboardingPlay,
} from '../../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { user } from '../support/user';

const COMPLETES = 'MX-4711-W0001';
const FAILS = 'MX-4711-W0002';
const FROM_A_LINK = 'MX-4711-W0003';
const PINNED = 'MX-4711-W0004';
const HOSTILE = 'MX-4711-W0005';

/** The watches' status bar item as the user reads it: its text without the leading icon. */
function statusBarText(): string {
  // VS Code may prefix the id with the extension's.
  const item = user.statusBarItems().find((created) => created.id.endsWith('onboardingEvents.watches'));
  assert.ok(item, 'the watches have a status bar item');
  return item.text.replace(/^\$\([^)]*\)\s*/, '');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function setting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('onboardingEvents').update(name, value, vscode.ConfigurationTarget.Global);
}

function machineRow(tree: readonly RenderedNode[], serialNumber: string): RenderedNode | undefined {
  return tree.flatMap((group) => group.children ?? []).find((node) => node.kind === 'machine' && node.label === serialNumber);
}

describe('Watch Onboarding', function () {
  this.timeout(90_000);
  let fake: FakeApi;
  let api: TestedApi;
  const plays: OnboardingPlay[] = [];

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
    await setting('watch.firstIntervalSeconds', 1);
    await signIn(fake);
  });

  after(async () => {
    for (const play of plays) play.stop();
    for (const serial of [COMPLETES, FAILS, FROM_A_LINK, HOSTILE, TEST_SERIALS.started])
      await vscode.commands.executeCommand('onboardingEvents.stopWatching', serial);
    await setting('watch.firstIntervalSeconds', undefined);
    await setting('watch.notifyPinnedFailures', undefined);
    await signOutIfSignedIn();
    await fake.close();
  });

  it('watches two machines through to onboarded and failed: one notification each, the status bar, the rows and the badge', async () => {
    const hooks = api.testHooks;
    // The first step is on the fake before the watch starts; the rest appear 700 ms apart.
    plays.push(playOnboarding(fake, COMPLETES, onboardingScript('completed', 700, 43 * 60_000)));
    plays.push(playOnboarding(fake, FAILS, onboardingScript('failed', 700)));
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.watchMachine', COMPLETES), 'started');
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.watchMachine', { serialNumber: FAILS }), 'started');
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.watchMachine', FAILS), 'already-watched');

    assert.equal(statusBarText(), 'Watching 2');
    const row = machineRow(await hooks.machines.render(2), COMPLETES);
    assert.ok(row, 'the watched machine is listed (Recent)');
    assert.match(row.description ?? '', /^watching · (ONBOARDING_STARTED|DEVICE_REGISTERED|CERTIFICATE_REQUESTED) · /);
    assert.equal(row.icon, 'eye-watch');
    assert.match(row.contextValue ?? '', /\.watched/);

    // The outcome is stored before the window claims telling it (a file created in global storage), so the
    // notification follows the status by that claim's I/O: wait for both, or a loaded machine reads too early.
    await until(
      'both outcomes and their notifications',
      () => {
        const states = hooks.watch.list().map((watch) => `${watch.serialNumber}:${watch.status}`);
        const told = user.shown().map((note) => note.message);
        return (
          states.includes(`${COMPLETES}:onboarded`) &&
          states.includes(`${FAILS}:failed`) &&
          told.some((message) => message.startsWith(`${COMPLETES} onboarded in`)) &&
          told.some((message) => message.startsWith(`${FAILS} failed to onboard:`))
        );
      },
      60_000,
    );
    // By their serial numbers, which only this suite uses: the test's user keeps the last 1000 only, so an index taken before would slide.
    const shown = user.shown();
    const completed = shown.filter((note) => note.message.startsWith(`${COMPLETES} onboarded in`));
    const failed = shown.filter((note) => note.message.startsWith(`${FAILS} failed to onboard:`));
    assert.equal(completed.length, 1, `one notification of the onboarding: ${JSON.stringify(shown)}`);
    const [onboardedNote] = completed;
    assert.ok(onboardedNote);
    assert.equal(onboardedNote.kind, 'info');
    assert.match(onboardedNote.message, /onboarded in 43 min$/);
    assert.equal(failed.length, 1);
    const [failedNote] = failed;
    assert.ok(failedNote);
    assert.equal(failedNote.kind, 'warning');
    assert.match(failedNote.message, /Certificate enrolment rejected: the device clock is 3 h ahead of the CA\./);

    assert.equal(statusBarText(), '1 failed · 1 onboarded');
    const badge = hooks.machines.badge();
    assert.ok((badge?.value ?? 0) >= 2, `the badge counts both outcomes: ${JSON.stringify(badge)}`);
    assert.match(badge?.tooltip ?? '', /2 watched machines finished onboarding/);
    const ended = machineRow(await hooks.machines.render(2), FAILS);
    assert.doesNotMatch(ended?.contextValue ?? '', /\.watched/, 'an ended watch offers Watch again');

    // Polling stopped by itself.
    const requests = fake.eventRequests(COMPLETES).length + fake.eventRequests(FAILS).length;
    await sleep(3000);
    assert.equal(fake.eventRequests(COMPLETES).length + fake.eventRequests(FAILS).length, requests);
  });

  it('a link with watch=1 is asked about first, like any request from outside', async () => {
    const hooks = api.testHooks;
    const asked: string[] = [];
    // Showing the machine the link names is agreed to (it is asked too: the user does not list it); the watch is declined.
    const answers = user.answerModals((shown) => {
      asked.push(shown.message);
      return shown.message.includes('asks to show') ? shown.items[0] : undefined;
    });
    try {
      await vscode.commands.executeCommand('onboardingEvents.machines.focus');
      await hooks.links.open(hooks.links.linkTo(FROM_A_LINK, '&watch=1'));
      await until('the linked machine selected in the view', () => hooks.machines.selected().includes(FROM_A_LINK));
    } finally {
      answers.dispose();
    }
    assert.ok(
      asked.some((message) => message.includes(`asks to watch the onboarding of ${FROM_A_LINK}`)),
      JSON.stringify(asked),
    );
    assert.equal(
      hooks.watch.list().some((watch) => watch.serialNumber === FROM_A_LINK),
      false,
      'declined: nothing is watched',
    );
  });

  it('with watch.notifyPinnedFailures, a pinned machine that newly fails is told once, without a watch', async () => {
    const hooks = api.testHooks;
    await setting('watch.notifyPinnedFailures', true);
    fake.setMachineEvents(PINNED, [makeEvent({ type: 'ONBOARDING_STARTED', message: 'started', timestamp: Date.now() - 60_000 })]);
    await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber: PINNED });
    try {
      await hooks.getEvents(PINNED, { force: true });
      fake.addEvent(PINNED, makeEvent({ type: 'ONBOARDING_FAILED', message: 'Gateway unreachable', timestamp: Date.now() }));
      await hooks.getEvents(PINNED, { force: true });
      await until('the failure notification', () =>
        user.shown().some((note) => note.message === `${PINNED} failed to onboard: Gateway unreachable`),
      );
      await hooks.getEvents(PINNED, { force: true });
      await sleep(500);
      const told = user.shown().filter((note) => note.message.startsWith(`${PINNED} failed`));
      assert.equal(told.length, 1, 'told once, not at every refresh');
    } finally {
      await vscode.commands.executeCommand('onboardingEvents.removeMachine', { serialNumber: PINNED });
      await setting('watch.notifyPinnedFailures', undefined);
    }
  });

  it("server text on the watch's surfaces is shown cleaned: no $(…) icon, no bidi override reversing a word (issue 34, item 2)", async () => {
    const hooks = api.testHooks;
    const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    fake.setMachineEvents(HOSTILE, [
      makeEvent({ type: 'STEP \u202eDELIAF\u202c $(loading~spin)', message: 'started', timestamp: Date.now() - 60_000 }),
    ]);
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.watchMachine', HOSTILE), 'started');
    const row = machineRow(await hooks.machines.render(2), HOSTILE);
    assert.ok(row, 'the watched machine is listed');
    const description = row.description ?? '';
    assert.doesNotMatch(description, BIDI, `the row shows no bidi control: ${JSON.stringify(description)}`);
    assert.doesNotMatch(description, /\$\(/, `the row shows no icon syntax: ${JSON.stringify(description)}`);
    assert.match(description, /^watching · STEP DELIAF \$\u200a\(loading~spin\) · /);

    fake.addEvent(
      HOSTILE,
      makeEvent({
        type: 'FAILED $(pass-filled) $(loading~spin) all checks \u202egnissap\u202c',
        message: 'Gateway \u202eenod\u202c $(check) [Retry](command:workbench.action.terminal.new)',
        timestamp: Date.now(),
      }),
    );
    // The watch's own timer (first interval 1 s) polls and finds the failure.
    const note = await until('the failure notification', () =>
      user.shown().find((shown) => shown.message.startsWith(`${HOSTILE} failed to onboard:`)),
    );
    assert.doesNotMatch(note.message, BIDI, JSON.stringify(note.message));
    assert.doesNotMatch(note.message, /\$\(|\]\(/, JSON.stringify(note.message));
  });

  it('says once that watching stopped when the API refuses the sign-in, and what to do', async () => {
    const hooks = api.testHooks;
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.watchMachine', TEST_SERIALS.started), 'started');
    fake.setPassword(TEST_CREDENTIALS.username, 'changed-by-the-administrator');
    fake.revokeAllTokens();
    await until('the refused sign-in', () => hooks.session.state().kind === 'credentials-rejected');
    await sleep(500);
    const told = user.shown().filter((note) => /watched machine/.test(note.message));
    assert.equal(told.length, 1, JSON.stringify(user.shown()));
    assert.match(told[0]?.message ?? '', /refused the sign-in of "Test".*Sign in again/);
    assert.equal(hooks.watch.list().find((watch) => watch.serialNumber === TEST_SERIALS.started)?.status, 'paused');
    assert.match(statusBarText(), /\(paused\)/);
  });
});
