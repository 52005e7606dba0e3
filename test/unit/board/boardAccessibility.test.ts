// The board's page audited by axe-core in Debian's Chromium, as the webview
// renders it (the host's HTML shell with its CSP and nonce, the bundled
// script, the --vscode-* variables of the theme): 0 violations in the light,
// dark and high-contrast themes, with a line of machines in every state and
// server text that tries to be markup.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { boardOf, launchBrowser, openBoardPage } from '../../support/board/boardPage';
import { lineRows, manyRowsWithProgress } from '../../support/board/boardFixtures';
import { DEFAULT_SORT, sortRows } from '../../../src/core/domain/board/boardTable';
import { MAX_ROWS } from '../../../src/extension/board/protocol';
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

  it('says how many machines of a set past the limit are not on the board, and the limit', async () => {
    const board = await openBoardPage(browser, 'dark');
    try {
      await board.show(boardOf(lineRows(), { beyond: 2345 }));
      assert.match(
        await board.page.locator('.notices').innerText(),
        new RegExp(
          `^Machines in this set not on the board: 2,345\\. A board shows at most ${MAX_ROWS.toLocaleString('en')} machines; open a smaller set`,
          'm',
        ),
      );
    } finally {
      await board.close();
    }
  });

  describe(`at ${MAX_ROWS.toLocaleString('en')} machines`, () => {
    const { rows, usual } = manyRowsWithProgress(MAX_ROWS, 10);
    const inOrder = sortRows(rows, DEFAULT_SORT).map((row) => row.serialNumber);

    /** The focused button's text and the aria-rowindex of its row. */
    const focused = (board: Awaited<ReturnType<typeof openBoardPage>>): Promise<{ text: string | null; rowIndex: string | null }> =>
      board.page.evaluate(() => ({
        text: document.activeElement?.textContent ?? null,
        rowIndex: document.activeElement?.closest('[role=row]')?.getAttribute('aria-rowindex') ?? null,
      }));

    it('draws only the rows in view and a screenful either side, tells a screen reader the whole table, and has no violations', async () => {
      const board = await openBoardPage(browser, 'dark');
      try {
        const report = await board.show(boardOf(rows, { usual }));
        assert.equal(report.rows, MAX_ROWS);
        assert.equal(report.shown, MAX_ROWS);
        assert.ok(report.drawn > 10 && report.drawn < 150, `rows in the DOM: ${report.drawn}`);
        assert.deepEqual(report.firstShown, inOrder.slice(0, Math.min(50, report.drawn)));
        assert.equal(await board.page.locator('[role=table]').getAttribute('aria-rowcount'), String(MAX_ROWS + 1));
        const indexes = await board.page
          .locator('.body [role=row]')
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('aria-rowindex')));
        assert.deepEqual(
          indexes,
          indexes.map((_, i) => String(i + 2)),
          'each drawn row says its place, after the header row',
        );
        await board.page.evaluate(axeSource);
        const violations = await board.page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
        });
        assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
      } finally {
        await board.close();
      }
    });

    it('walks every row by keyboard, the drawn rows following, and keeps the row when the host posts again', async () => {
      const board = await openBoardPage(browser, 'dark');
      try {
        await board.show(boardOf(rows, { usual }));
        await board.page.locator('[role=rowheader] button').first().focus();
        await board.page.keyboard.press('ArrowDown');
        await board.page.keyboard.press('ArrowDown');
        assert.deepEqual(await focused(board), { text: inOrder[2], rowIndex: '4' });
        await board.page.keyboard.press('PageDown');
        assert.deepEqual(await focused(board), { text: inOrder[12], rowIndex: '14' });
        await board.page.keyboard.press('End');
        assert.deepEqual(await focused(board), { text: inOrder[MAX_ROWS - 1], rowIndex: String(MAX_ROWS + 1) });
        const drawn = (): Promise<string[]> =>
          board.page.locator('.body [role=rowheader] button').evaluateAll((buttons) => buttons.map((b) => b.textContent));
        assert.ok(!(await drawn()).includes(inOrder[0] ?? ''), 'the first row is no longer drawn');
        assert.ok((await drawn()).length < 150);
        await board.page.keyboard.press('PageUp');
        await board.page.keyboard.press('ArrowUp');
        assert.deepEqual(await focused(board), { text: inOrder[MAX_ROWS - 12], rowIndex: String(MAX_ROWS - 10) });
        // An update from the host rebuilds the rows: the keyboard stays on its row.
        await board.show(boardOf(rows, { usual }));
        assert.deepEqual(await focused(board), { text: inOrder[MAX_ROWS - 12], rowIndex: String(MAX_ROWS - 10) });
        assert.equal(await board.page.locator('[role=rowgroup] button[tabindex="0"]').count(), 1, 'one tab stop in the table');
        await board.page.keyboard.press('ArrowRight');
        assert.equal(
          await board.page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
          `Reveal ${inOrder[MAX_ROWS - 12] ?? ''} in the Machines view`,
        );
        await board.page.keyboard.press('Home');
        assert.deepEqual(await focused(board), { text: inOrder[0], rowIndex: '2' });
      } finally {
        await board.close();
      }
    });
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
