// The test's user (support/user.ts) only works while the product and the
// tests share VS Code's API object; if VS Code ever gives them separate ones,
// every test that answers a question would silently stop answering it. This
// suite proves the sharing through product code paths, from the outside.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from './support/extension';
import { user } from './support/user';

describe("the test user stands in for VS Code's own questions", () => {
  before(async () => {
    await activateExtension();
  });

  it('sees the notification the product shows', async () => {
    const since = user.shown().length;
    await vscode.commands.executeCommand('onboardingEvents.clearLookupHistory');
    assert.deepEqual(
      user.shownSince(since).map((s) => [s.kind, s.message, s.modal]),
      [['info', 'Look-up history cleared.', false]],
    );
  });

  it('answers a modal in place of the user, and records the answer', async () => {
    const answers = user.answerModals((shown) => (shown.message === 'Question?' ? 'No' : undefined));
    try {
      const chosen = await vscode.window.showWarningMessage('Question?', { modal: true, detail: 'Why' }, 'Yes', 'No');
      assert.equal(chosen, 'No');
      const last = user.modals().at(-1);
      assert.deepEqual(
        { ...last },
        { kind: 'warning', message: 'Question?', modal: true, detail: 'Why', items: ['Yes', 'No'], answer: 'No' },
      );
    } finally {
      answers.dispose();
    }
  });
});
