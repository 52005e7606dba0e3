// The board's page audited by axe-core in Debian's Chromium, as the webview
// renders it (the host's HTML shell with its CSP and nonce, the bundled
// script, the --vscode-* variables of the theme): 0 violations in the light,
// dark and high-contrast themes, with a line of machines in every state and
// server text that tries to be markup.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { boardOf, launchBrowser, openBoardPage } from '../../support/board/boardPage';
import { lineRows } from '../../support/board/boardFixtures';
import type { ThemeName } from '../../support/board/themes';

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly string[];
}

describe('the onboarding board page, audited by axe-core in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser.close();
  });

  it('keeps the keyboard on its row when the rows are rebuilt as answers land, and walks rows with the arrow keys', async () => {
    const board = await openBoardPage(browser, 'dark');
    try {
      await board.show(boardOf(lineRows()));
      const focusedText = (): Promise<string | null> => board.page.evaluate(() => document.activeElement?.textContent ?? null);
      await board.page.locator('[role=rowheader] button').first().focus();
      await board.page.keyboard.press('ArrowDown');
      await board.page.keyboard.press('ArrowDown');
      assert.equal(await focusedText(), 'LSR-6060-F0042', 'the third row in serial-number order');
      // An update from the host (a machine's answer landed) rebuilds every row.
      await board.show(boardOf(lineRows()));
      assert.equal(await focusedText(), 'LSR-6060-F0042');
      assert.equal(await board.page.locator('[role=rowgroup] button[tabindex="0"]').count(), 1, 'one tab stop in the table');
    } finally {
      await board.close();
    }
  });

  it('says how many machines wait to be loaded, one machine as its own whole message', async () => {
    const board = await openBoardPage(browser, 'light');
    try {
      const notice = board.page.locator('.notices');
      await board.show(boardOf(lineRows(), { held: 1 }));
      assert.match(await notice.innerText(), /^1 machine is not loaded yet: the board loads at most \d+ without asking\./m);
      await board.show(boardOf(lineRows(), { held: 1234 }));
      assert.match(await notice.innerText(), /^1,234 machines are not loaded yet: the board loads at most \d+ without asking\./m);
    } finally {
      await board.close();
    }
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const satisfies readonly ThemeName[]) {
    it(`has no violations in the ${theme} theme`, async () => {
      const board = await openBoardPage(browser, theme);
      try {
        const report = await board.show(boardOf(lineRows(), { held: 3 }));
        assert.equal(report.rows, 8);
        // The hostile type is text in a cell, never an element.
        assert.equal(await board.page.locator('img').count(), 0);
        await board.page.evaluate(axeSource);
        const violations = await board.page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            nodes: (v.nodes as unknown as { target: string[] }[]).map((n) => n.target.join(' ')),
          }));
        });
        assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
      } finally {
        await board.close();
      }
    });
  }
});
