#!/usr/bin/env node
// `node scripts/walkthroughImages.mjs`: the walkthrough's pictures are parts of
// the real extension's screenshots (media/screenshots/, `npm run screenshots`),
// cut out with the Chromium the screenshots already use, so they stay in step
// when the screenshots are taken again. Writes media/walkthrough/*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, makeScratch, removeScratch } from './vscode/workbench.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** name: [screenshot, x, y, width, height] */
const CUTS = {
  'sign-in': ['sign-in-step-1-api-url', 390, 0, 620, 130],
  machines: ['machines-tree-populated', 0, 36, 650, 370],
  hover: ['serial-number-hover', 52, 140, 1000, 265],
  details: ['event-details-dark', 52, 80, 840, 370],
};

const scratch = makeScratch('walkthrough');
const { browser, page } = await launchChromium({ scratch });
try {
  for (const [name, [shot, x, y, width, height]] of Object.entries(CUTS)) {
    const png = readFileSync(join(root, 'media', 'screenshots', `${shot}.png`)).toString('base64');
    await page.setViewportSize({ width, height });
    await page.setContent(
      `<body style="margin:0;overflow:hidden"><img style="position:absolute;left:${-x}px;top:${-y}px" src="data:image/png;base64,${png}"></body>`,
    );
    await page.waitForFunction('document.images[0]?.complete');
    await page.screenshot({ path: join(root, 'media', 'walkthrough', `${name}.png`) });
    console.log(`wrote media/walkthrough/${name}.png`);
  }
} finally {
  await browser.close();
  removeScratch(scratch);
}
