// The board says a duration in the same words as every other view (formatDuration), in the reader's
// language: the table of the page in Chromium, the aligned timeline axis and the Markdown export.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { plainLocalize, type Localize } from '../../../src/core/common/localize';
import { formatDuration } from '../../../src/core/common/time';
import { boardToMarkdown } from '../../../src/core/domain/board/boardExport';
import type { BoardRow } from '../../../src/core/domain/board/boardRows';
import { axisLabel } from '../../../src/core/domain/board/boardTable';
import { exportWords } from '../../../src/extension/board/boardStrings';
import { boardOf, launchBrowser, openBoardPage } from '../../support/board/boardPage';
import { lineRows } from '../../support/board/boardFixtures';

const root = join(__dirname, '..', '..', '..', '..');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** One of each of formatDuration's templates: ms, s, min, h, h min, 1 day, days, 1 day h, days h. */
const DURATIONS = [850, 1_200, 40 * SECOND, 46 * MINUTE, 2 * HOUR, 2 * HOUR + 5 * MINUTE, 24 * HOUR, 28 * HOUR, 48 * HOUR, 52 * HOUR];

/** vscode.l10n.t as it reads a bundle of the extension. */
function bundleLocalize(file: string): Localize {
  const bundle = JSON.parse(readFileSync(join(root, 'l10n', file), 'utf8')) as Record<string, string>;
  return (message, ...args) => plainLocalize(bundle[message] ?? message, ...args);
}

const LANGUAGES: readonly { readonly locale: string; readonly t: Localize }[] = [
  { locale: 'en', t: plainLocalize },
  { locale: 'de', t: bundleLocalize('bundle.l10n.de.json') },
  { locale: 'zh-cn', t: bundleLocalize('bundle.l10n.zh-cn.json') },
];

function timedRows(): BoardRow[] {
  const base = lineRows()[0];
  if (base === undefined) throw new Error('the line has no machines');
  return DURATIONS.map((durationMs, i) => ({ ...base, serialNumber: `M-${String(i).padStart(2, '0')}`, durationMs }));
}

describe('the board words durations as formatDuration does', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser.close();
  });

  for (const { locale, t } of LANGUAGES) {
    it(`in the table of the page, in ${locale}`, async () => {
      const board = await openBoardPage(browser, 'light');
      try {
        await board.show({ ...boardOf(timedRows()), locale }, t);
        const cells = await board.page.evaluate(() =>
          Array.from(document.querySelectorAll('[role=row]')).flatMap((row) => {
            const serial = row.querySelector('[role=rowheader]')?.textContent;
            const duration = row.querySelector('.col-duration')?.textContent;
            return serial && duration !== undefined ? [[serial, duration]] : [];
          }),
        );
        assert.deepEqual(
          Object.fromEntries(cells),
          Object.fromEntries(DURATIONS.map((ms, i) => [`M-${String(i).padStart(2, '0')}`, formatDuration(ms, t)])),
        );
      } finally {
        await board.close();
      }
    });

    it(`on the aligned axis and in the Markdown export, in ${locale}`, () => {
      assert.deepEqual(
        DURATIONS.map((ms) => axisLabel(ms, MINUTE, { aligned: true, locale, t })),
        DURATIONS.map((ms) => `+${formatDuration(ms, t)}`),
      );
      const markdown = boardToMarkdown(timedRows(), exportWords(t)).split('\n').slice(2, -1);
      assert.deepEqual(
        markdown.map((line) => line.split(' | ')[4]),
        DURATIONS.map((ms) => formatDuration(ms, t)),
      );
    });
  }

  it('in German and Chinese words, not English ones', () => {
    const [, de, zh] = LANGUAGES;
    assert.equal(formatDuration(52 * HOUR, de?.t), '2 Tage 4 Std.');
    assert.equal(formatDuration(52 * HOUR, zh?.t), '2 天 4 小时');
  });
});
