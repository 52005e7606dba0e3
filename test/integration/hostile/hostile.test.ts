// Hostile corpus, real host: what a workspace's settings, another extension
// or a command link can do to a real VS Code with the extension running.
// The unit tier (test/unit/hostile/) holds the tables; this suite checks the
// same promises end to end. Add a case where a table row needs the host.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signIn, signInArgs, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { pages } from '../support/pages';
import { user } from '../support/user';

const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('onboardingEvents');

async function openText(content: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ content, language: 'plaintext' });
  await vscode.window.showTextDocument(document);
  return document;
}

describe('Hostile input (real host)', () => {
  let api: TestedApi;
  let fake: FakeApi;

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutIfSignedIn();
    await fake.close();
  });

  it('a catastrophic serial-number pattern in the settings does not freeze the host: links and hovers on a 10 kB hostile line answer at once', async () => {
    await settings().update('serialNumber.pattern', '(?:A|A)*!', vscode.ConfigurationTarget.Global);
    try {
      const document = await openText(`${'A'.repeat(10_240)}\n${'1'.repeat(10_240)}\n`);
      const started = performance.now();
      await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', document.uri);
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(0, 5000));
      const elapsed = performance.now() - started;
      // With a backtracking engine this pattern takes 0.6 s at 26 characters and 4x more per character.
      assert.ok(elapsed < 2000, `answered in ${elapsed.toFixed(0)} ms`);
    } finally {
      await settings().update('serialNumber.pattern', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  describe('argument forms, as another extension or a command link would run them', () => {
    // The product asks about every argument here as it would for any other extension; the test's user
    // (support/user.ts) agrees by default (the suite's own sign-in and sign-out) and declines where a test says.

    it('signIn with an argument object stores nothing unless the user confirms the modal that shows the URLs', async () => {
      const hook = api.testHooks.session;
      assert.ok(hook);
      const asked: string[] = [];
      const answer = user.answerModals((shown) => {
        asked.push(`${shown.message}\n${shown.detail ?? ''}`);
        return undefined;
      });
      const tokenRequests = fake.tokenRequests().length;
      try {
        const result = await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Hostile'));
        assert.equal(result, undefined);
        assert.equal(hook.environmentNames().includes('Hostile'), false, 'nothing stored');
        assert.equal(fake.tokenRequests().length, tokenRequests, 'not even a token request: the credentials went nowhere');
        assert.match(
          asked[0] ?? '',
          new RegExp(`${fake.authUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/token`),
          'the modal shows where the password would go',
        );
      } finally {
        answer.dispose();
      }
    });

    it("an argument that would overwrite an environment's URLs says so in the modal, and declining keeps the old URLs", async () => {
      const hook = api.testHooks.session;
      assert.ok(hook);
      await signIn(fake);
      const other = await startFakeApi();
      const asked: string[] = [];
      const answer = user.answerModals((shown) => {
        asked.push(`${shown.message}\n${shown.detail ?? ''}`);
        return undefined;
      });
      try {
        await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(other, 'Test'));
        assert.match(asked[0] ?? '', /replaces the URLs of your environment "Test"/);
        assert.ok(hook.storedStateJson().includes(fake.authUrl), 'the stored environment keeps its URLs');
        assert.equal(hook.storedStateJson().includes(other.authUrl), false);
      } finally {
        answer.dispose();
        await other.close();
        await signOutIfSignedIn();
      }
    });

    it('signIn confirmed in the modal signs in and records the URLs as confirmed (Sign In Again may then skip them)', async () => {
      const hook = api.testHooks.session;
      assert.ok(hook);
      const answer = user.answerModals((shown) => shown.items[0]);
      try {
        assert.deepEqual(await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Test')), {
          environment: 'Test',
        });
        assert.match(hook.storedStateJson(), /onboardingEvents\.confirmedEndpoints/);
      } finally {
        answer.dispose();
        await signOutIfSignedIn();
      }
    });

    it('exportEvents with a uri opens the save dialog instead of writing; cancelling it writes nothing', async () => {
      await signIn(fake);
      // Added as our tests do: as the user, adding by an argument asks first (issue 24, item 5).
      await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber: TEST_SERIALS.onboarded });
      const dir = mkdtempSync(join(tmpdir(), 'oe-hostile-'));
      const target = join(dir, 'written-by-a-link.json');
      try {
        const running = vscode.commands.executeCommand<string | undefined>('onboardingEvents.exportEvents', {
          serialNumber: TEST_SERIALS.onboarded,
          uri: target,
        });
        await new Promise((resolve) => {
          setTimeout(resolve, 1500);
        });
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        const result = await Promise.race([
          running,
          new Promise<'still waiting'>((resolve) =>
            setTimeout(() => {
              resolve('still waiting');
            }, 5000),
          ),
        ]);
        assert.notEqual(typeof result, 'string', `the command returned ${String(result)}`);
        assert.equal(existsSync(target), false, 'nothing was written without the dialog');
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await vscode.commands.executeCommand('onboardingEvents.removeMachine', TEST_SERIALS.onboarded);
        await signOutIfSignedIn();
      }
    });

    /** Answers every modal "no" until disposed, recording what was asked. */
    const declineAll = (asked: string[]): { dispose(): void } =>
      user.answerModals((shown) => {
        asked.push(shown.message);
        return undefined;
      });

    it('signIn whose password is a getter that answers differently on a later read still asks, and declining stores nothing (issue 24, item 1)', async () => {
      const hook = api.testHooks.session;
      assert.ok(hook);
      const asked: string[] = [];
      const answer = declineAll(asked);
      const tokenRequests = fake.tokenRequests().length;
      const args = signInArgs(fake, 'Getter');
      let reads = 0;
      const hostile = {
        ...args,
        get password(): unknown {
          reads++;
          return reads <= 2 ? args.password : 0;
        },
      };
      try {
        await vscode.commands.executeCommand('onboardingEvents.signIn', hostile);
        assert.equal(asked.length, 1, 'the modal was shown');
        assert.equal(hook.environmentNames().includes('Getter'), false, 'nothing stored');
        assert.equal(fake.tokenRequests().length, tokenRequests, 'no token request');
        assert.equal(reads, 1, 'the argument was read once');
      } finally {
        answer.dispose();
        await signOutIfSignedIn('Getter');
      }
    });

    it('addMachine, pinMachine, revealMachine, lookUpMachine, refreshMachine and loadMore with { serialNumber } ask first; declined, nothing is loaded and events.peek has nothing (issue 24, item 5)', async () => {
      await signIn(fake);
      api.events.clear();
      fake.clearRequests();
      const asked: string[] = [];
      const answer = declineAll(asked);
      try {
        const commands = [
          'onboardingEvents.addMachine',
          'onboardingEvents.pinMachine',
          'onboardingEvents.revealMachine',
          'onboardingEvents.lookUpMachine',
          'onboardingEvents.refreshMachine',
          'onboardingEvents.loadMore',
        ];
        for (const command of commands) await vscode.commands.executeCommand(command, { serialNumber: TEST_SERIALS.started });
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(asked.length, commands.length, `asked: ${asked.join(' | ')}`);
        assert.deepEqual(fake.eventRequests(TEST_SERIALS.started), [], "no request on another extension's behalf");
        assert.equal(api.events.peek(TEST_SERIALS.started), undefined, 'nothing for another extension to read');
        assert.equal(api.machines.pinned().includes(TEST_SERIALS.started), false);
        assert.equal(api.machines.recent().includes(TEST_SERIALS.started), false);
      } finally {
        answer.dispose();
        // Removing needs no question; on code that did not ask, the machine would stay listed for the next test.
        await vscode.commands.executeCommand('onboardingEvents.removeMachine', TEST_SERIALS.started);
        await signOutIfSignedIn();
      }
    });

    it('vscode.lm.invokeTool of getMachineEvents outside a chat asks before a request; declined, it reads nothing (issue 24, item 5)', async () => {
      await signIn(fake);
      await settings().update('agentTools.enabled', true, vscode.ConfigurationTarget.Global);
      api.events.clear();
      fake.clearRequests();
      const asked: string[] = [];
      const answer = declineAll(asked);
      const source = new vscode.CancellationTokenSource();
      try {
        const outcome = await vscode.lm
          .invokeTool(
            'onboardingEvents_getMachineEvents',
            { input: { serialNumbers: [TEST_SERIALS.started, TEST_SERIALS.onboarded] }, toolInvocationToken: undefined },
            source.token,
          )
          .then(
            () => 'answered',
            (error: unknown) => (error instanceof Error ? error.name : String(error)),
          );
        assert.equal(asked.length, 1, 'the modal was shown');
        assert.notEqual(outcome, 'answered');
        assert.deepEqual(fake.eventRequests(), [], 'no request');
        assert.equal(api.events.peek(TEST_SERIALS.started), undefined);
      } finally {
        source.dispose();
        answer.dispose();
        await settings().update('agentTools.enabled', undefined, vscode.ConfigurationTarget.Global);
        await signOutIfSignedIn();
      }
    });

    it('notASerialNumber with { serialNumber, target } asks where instead of writing the settings file (issue 24, item 9)', async () => {
      const before = JSON.stringify(settings().inspect('serialNumber.denyList')?.workspaceValue ?? null);
      const running = vscode.commands.executeCommand('onboardingEvents.notASerialNumber', {
        serialNumber: 'HOSTILE-NOT-A-SERIAL',
        target: 'workspace',
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 5000))]);
      assert.equal(JSON.stringify(settings().inspect('serialNumber.denyList')?.workspaceValue ?? null), before, 'nothing written');
    });

    it('switchEnvironment with { environment } and signOut with { confirm: false } ask; declined, nothing changes (issue 24, item 9)', async () => {
      const hook = api.testHooks.session;
      assert.ok(hook);
      const other = await startFakeApi();
      await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(other, 'Other'));
      await signIn(fake);
      const asked: string[] = [];
      const answer = declineAll(asked);
      try {
        assert.equal(hook.state().environment, 'Test');
        await vscode.commands.executeCommand('onboardingEvents.switchEnvironment', { environment: 'Other' });
        assert.equal(hook.state().environment, 'Test', 'still in the environment the user chose');
        await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Test', confirm: false });
        assert.equal(hook.state().kind, 'signed-in', 'still signed in');
        assert.equal(asked.length, 2, `asked: ${asked.join(' | ')}`);
      } finally {
        answer.dispose();
        await signOutIfSignedIn('Other');
        await signOutIfSignedIn();
        await other.close();
      }
    });

    it("our hover's Pin link acts without a modal; the same link with another serial number asks (issue 24, item 5)", async () => {
      await signIn(fake);
      const asked: string[] = [];
      const answer = declineAll(asked);
      try {
        const document = await openText(`see ${TEST_SERIALS.empty}\n`);
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          document.uri,
          new vscode.Position(0, 6),
        );
        const markdown = hovers
          .flatMap((hover) => hover.contents)
          .map((content) => (content instanceof vscode.MarkdownString ? content.value : ''))
          .join('\n');
        const link = /command:onboardingEvents\.pinMachine\?([^)\s]+)/.exec(markdown);
        assert.ok(link?.[1], `a Pin link in: ${markdown}`);
        const [arg] = JSON.parse(decodeURIComponent(link[1])) as [Record<string, unknown>];
        await vscode.commands.executeCommand('onboardingEvents.pinMachine', { ...arg, serialNumber: TEST_SERIALS.started });
        assert.equal(asked.length, 1, 'a copied mark does not vouch for another serial number');
        assert.equal(api.machines.pinned().includes(TEST_SERIALS.started), false);
        await vscode.commands.executeCommand('onboardingEvents.pinMachine', arg);
        assert.equal(asked.length, 1, 'our own link was not asked about');
        assert.equal(api.machines.pinned().includes(TEST_SERIALS.empty), true);
      } finally {
        answer.dispose();
        await vscode.commands.executeCommand('onboardingEvents.removeMachine', TEST_SERIALS.empty);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await signOutIfSignedIn();
      }
    });

    it('openBoard with a file uri from another extension asks first; declined, no board opens and nothing is loaded (issue 34, item 3)', async () => {
      await signIn(fake);
      api.events.clear();
      fake.clearRequests();
      const dir = mkdtempSync(join(tmpdir(), 'oe-board-'));
      const file = join(dir, 'machines.txt');
      writeFileSync(file, `${TEST_SERIALS.started}\n${TEST_SERIALS.onboarded}\n`);
      const asked: string[] = [];
      const answer = declineAll(asked);
      try {
        await vscode.commands.executeCommand('onboardingEvents.openBoard', vscode.Uri.file(file));
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(asked.length, 1, `asked: ${asked.join(' | ')}`);
        assert.match(asked[0] ?? '', /machines\.txt/, 'the modal names the file');
        assert.equal(pages.board.panel(), undefined, 'no board opened');
        assert.deepEqual(fake.eventRequests(), [], "no request on another extension's behalf");
      } finally {
        answer.dispose();
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        rmSync(dir, { recursive: true, force: true });
        await signOutIfSignedIn();
      }
    });

    it('a machine link to a machine the user does not list asks first; declined, nothing is loaded or listed (an entry point that loads asks first)', async () => {
      await signIn(fake);
      api.events.clear();
      fake.clearRequests();
      const asked: string[] = [];
      const answer = declineAll(asked);
      try {
        await api.testHooks.links.open(api.testHooks.links.linkTo(TEST_SERIALS.started));
        assert.equal(asked.length, 1, `asked: ${asked.join(' | ')}`);
        assert.match(asked[0] ?? '', new RegExp(`asks to show ${TEST_SERIALS.started}`), 'the link asked to show the machine');
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual(fake.eventRequests(TEST_SERIALS.started), [], 'no request for a link nobody agreed to');
        assert.equal(api.machines.recent().includes(TEST_SERIALS.started), false);
      } finally {
        answer.dispose();
        await signOutIfSignedIn();
      }
    });

    it('showEventDetails and showRawJson with a reference the cache cannot answer ask before loading; declined, nothing is loaded (an entry point that loads asks first)', async () => {
      await signIn(fake);
      api.events.clear();
      fake.clearRequests();
      const asked: string[] = [];
      const answer = declineAll(asked);
      try {
        await vscode.commands.executeCommand('onboardingEvents.showEventDetails', { serialNumber: TEST_SERIALS.started });
        await vscode.commands.executeCommand('onboardingEvents.showRawJson', { serialNumber: TEST_SERIALS.started });
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(asked.length, 2, `asked: ${asked.join(' | ')}`);
        assert.deepEqual(fake.eventRequests(TEST_SERIALS.started), [], "no request on another extension's behalf");
        assert.equal(api.events.peek(TEST_SERIALS.started), undefined, 'nothing for another extension to read');
      } finally {
        answer.dispose();
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await signOutIfSignedIn();
      }
    });

    it('machines.reveal from another extension makes no request and adds nothing for a serial the user never listed', async () => {
      await signIn(fake);
      try {
        fake.clearRequests();
        await api.machines.reveal(TEST_SERIALS.started);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual(fake.eventRequests(TEST_SERIALS.started), [], "no request on another extension's behalf");
        assert.equal(api.machines.recent().includes(TEST_SERIALS.started), false);
      } finally {
        await signOutIfSignedIn();
      }
    });
  });

  it('an event whose type and message are 3 MB each: the hover, the Problems entry and the agent summary stay small, and a cached hover is quick', async () => {
    const serial = 'MX-4711-A0777';
    const THREE_MB = 3 * 1024 * 1024;
    // Under the 10 MB response cap (escaped line breaks included), so the whole answer arrives.
    fake.setMachineEvents(serial, [
      { type: `ONBOARDING_FAILED${' x'.repeat(THREE_MB / 2)}`, message: `Rejected.${'\ny'.repeat(THREE_MB / 2)}`, timestamp: Date.now() },
    ]);
    await signIn(fake);
    try {
      const document = await openText(`machine: ${serial}\n`);
      const position = new vscode.Position(0, 12);
      const hoverText = async (): Promise<string> => {
        const hovers =
          (await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', document.uri, position)) ?? [];
        return hovers
          .flatMap((hover) => hover.contents)
          .map((content) => (content instanceof vscode.MarkdownString ? content.value : typeof content === 'string' ? content : ''))
          .join('\n');
      };
      const first = await hoverText();
      assert.match(first, /failed/);
      assert.ok(first.length < 5_000, `the hover is ${first.length} characters`);
      const showDetails = /\[Show Details\]\((command:[^ )]+)/.exec(first)?.[1] ?? '';
      assert.ok(showDetails.length > 0 && showDetails.length < 300, `the Show Details link is ${showDetails.length} characters`);
      const requestsBefore = fake.eventRequests(serial).length;
      const started = performance.now();
      await hoverText();
      const cachedMs = performance.now() - started;
      assert.equal(fake.eventRequests(serial).length - requestsBefore, 0, 'the second hover was answered from the cache');
      assert.ok(cachedMs < 100, `a cached hover took ${cachedMs.toFixed(1)} ms through vscode.executeHoverProvider`);

      let problems: vscode.Diagnostic[] = [];
      for (let waited = 0; waited < 5_000 && problems.length === 0; waited += 100) {
        problems = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Onboarding Events');
        if (problems.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(problems.length, 1, 'the failed machine is a problem');
      assert.ok((problems[0]?.message.length ?? Infinity) < 300, `the Problems entry is ${problems[0]?.message.length} characters`);

      const summary = await vscode.lm.invokeTool('onboardingEvents_summarizeOnboarding', {
        input: { serialNumbers: [serial] },
        toolInvocationToken: undefined,
      });
      const text = summary.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      assert.ok(text.length < 5_000, `the summary is ${text.length} characters`);
      assert.match(text, /cut: \d+ characters in all/, 'the agent is told the type was cut');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await signOutIfSignedIn();
    }
  });

  describe('onboardingEvents_findSerialNumbers reads only inside the workspace, by real paths', () => {
    const TOOL = 'onboardingEvents_findSerialNumbers';
    const REFUSED =
      'Nothing was read: Only existing files inside the open workspace folders are read, and there is none at that path; give a path relative to the workspace folder.';
    const SECRET_SERIAL = 'MX-4711-A0099';
    let outside: string;
    let link: string;
    let folder: string;

    async function invoke(file: string): Promise<string> {
      const result = await vscode.lm.invokeTool(TOOL, { input: { source: 'file', file }, toolInvocationToken: undefined });
      return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    }

    before(() => {
      folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
      assert.ok(folder, 'the integration tier opens a folder');
      // A directory outside the workspace, holding what an attacker would want read (here: a serial number, to see whether it leaks).
      outside = mkdtempSync(join(tmpdir(), 'oe-outside-'));
      writeFileSync(join(outside, 'credentials'), `[default]\nserial = ${SECRET_SERIAL}\n`);
      // A symbolic link in a cloned repository, pointing out of it ("docs -> /").
      link = join(folder, `oe-link-${process.pid}`);
      symlinkSync(outside, link, 'dir');
    });

    after(() => {
      rmSync(link, { force: true });
      rmSync(outside, { recursive: true, force: true });
    });

    async function assertRefused(forms: readonly string[]): Promise<void> {
      for (const file of forms) {
        const text = await invoke(file);
        assert.equal(text, REFUSED, file);
        assert.equal(text.includes(SECRET_SERIAL), false);
      }
    }

    it('refuses "<folder>/../../…" and its file:// form, the same way whether the file exists or not', async () => {
      const climb = relative(folder, join(outside, 'credentials'));
      assert.match(climb, /^\.\./);
      await assertRefused([
        `${folder}${sep}${climb}`,
        `${vscode.Uri.file(folder).toString()}/${climb.split(sep).join('/')}`,
        climb,
        `${folder}${sep}${climb}-missing`,
      ]);
    });

    it('refuses a file reached through a symbolic link in the workspace that points out of it', async () => {
      await assertRefused([
        `${relative(folder, link)}${sep}credentials`,
        `${link}${sep}credentials`,
        `${vscode.Uri.file(link).toString()}/credentials`,
        `${relative(folder, link)}${sep}missing`,
      ]);
    });

    it('still reads a workspace file, also by a path with ".." that comes back inside', async () => {
      const text = await invoke(`${folder}${sep}..${sep}${folder.split(sep).pop() ?? ''}${sep}machines.yaml`);
      assert.match(text, /^2 serial numbers found in the file "machines\.yaml"\./);
    });

    it('names the file in the progress message, and asks first for a path that is absolute, a URI or climbs', async () => {
      const hook = api.testHooks.agentTools;
      assert.ok(hook);
      const climbing = `..${sep}..${sep}.aws${sep}credentials`;
      const asked = await hook.prepare(TOOL, { source: 'file', file: climbing });
      assert.ok(asked?.confirmationMessages, 'a climbing path asks first');
      assert.equal(asked.confirmationMessages.title, `Read ${climbing}?`);
      const message = asked.confirmationMessages.message;
      assert.match(typeof message === 'string' ? message : message.value, /credentials/);
      const plain = await hook.prepare(TOOL, { source: 'file', file: 'machines.yaml' });
      assert.equal(plain?.confirmationMessages, undefined);
      const progress = plain?.invocationMessage;
      assert.match(typeof progress === 'string' ? progress : (progress?.value ?? ''), /Finding serial numbers in machines\\?\.yaml/);
    });
  });

  it('a serial number with a command link, an icon or a bidi character is refused at input', async () => {
    await signIn(fake);
    try {
      for (const serialNumber of ['[Open](command:workbench.action.terminal.new)', 'MX-$(alert)', 'MX-4711\u202e']) {
        await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber });
        assert.equal(api.machines.pinned().includes(serialNumber), false, serialNumber);
      }
    } finally {
      await signOutIfSignedIn();
    }
  });

  describe('what one opened file may cost (issue 24 items 3 and 7)', function () {
    this.timeout(120_000);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const serial = (i: number): string =>
      `MX-${String(1000 + Math.floor(i / 10_000)).padStart(4, '0')}-A${String(i % 10_000).padStart(4, '0')}`;
    const ourDiagnostics = (uri: vscode.Uri): vscode.Diagnostic[] =>
      vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Onboarding Events');
    async function until(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!probe()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await sleep(50);
      }
    }

    afterEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await signOutIfSignedIn();
    });

    it('a 1 M-line document (5 MB): an answer from the API updates the Problems panel without rescanning the document', async () => {
      const failed = [serial(90_001), serial(90_002)];
      for (const s of failed)
        fake.setMachineEvents(s, [makeEvent({ type: 'ONBOARDING_FAILED', message: 'Certificate rejected', timestamp: 1_717_000_100 })]);
      await signIn(fake);
      const lines = Array.from({ length: 1_000_000 }, () => '    ');
      lines[2] = `serial: ${failed[0] ?? ''}`;
      lines[3_000] = `serial: ${failed[1] ?? ''}`;
      const document = await vscode.workspace.openTextDocument({ content: lines.join('\n'), language: 'yaml' });
      await vscode.window.showTextDocument(document);
      // The first serial number is on screen: the inline status loads it, and its Problems entry follows.
      await until('the first entry', () => ourDiagnostics(document.uri).length === 1);
      // The second is far below the screen: another view (here the test) loads it, as the tree or a hover would.
      // Timed from outside: from the answer landing in the cache to its entry in the Problems panel
      // (the update runs in this extension host, so a rescan would hold this loop as long as it lasts).
      await api.testHooks.getEvents(failed[1] ?? '');
      const answered = performance.now();
      while (ourDiagnostics(document.uri).length !== 2 && performance.now() - answered < 20_000)
        await new Promise((resolve) => setImmediate(resolve));
      const updateMs = performance.now() - answered;
      assert.equal(ourDiagnostics(document.uri).length, 2, 'the second entry');
      console.log(`    Problems update after one answer on a 1 M-line document: ${updateMs.toFixed(2)} ms (answer to entry)`);
      // A full rescan of the million lines took ~290 ms on every answer (1.19 s the first time).
      assert.ok(updateMs < 50, `the update after one answer took ${updateMs.toFixed(1)} ms`);
    });

    it('three visible lines of 713 serial numbers each load at most a screen of them without asking, not 2,139', async () => {
      await signIn(fake);
      fake.clearRequests();
      const lines = [0, 1, 2].map((line) => Array.from({ length: 713 }, (_, i) => serial(line * 1_000 + i)).join(' '));
      const document = await vscode.workspace.openTextDocument({ content: lines.join('\n'), language: 'yaml' });
      await vscode.window.showTextDocument(document);
      await until('the first requests', () => fake.eventRequests().length > 0);
      // The loads go 4 at a time against a fake answering at once: 3 s is room for hundreds.
      await sleep(3_000);
      const sent = fake.eventRequests().length;
      assert.ok(sent <= 50, `${sent} requests sent without asking`);
    });
  });
});
