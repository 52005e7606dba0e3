// What `npm run demo -- --screenshot FILE --try <name>` does in the browser
// before the screenshot: a person's steps, by keyboard, so the picture shows
// what a user sees (notifications included: the demo runs without the
// smoke-test driver).

/** Runs a command from the Command Palette by its title. */
async function runCommand(page, title) {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget', { state: 'visible' });
  await page.keyboard.type(title);
  await page.waitForTimeout(600);
  await page.keyboard.press('Enter');
}

/** Moves the mouse over the first occurrence of `text` in the editor, as a person would to get its hover. */
async function hoverText(page, text) {
  // The token's own span, not the line's span around it.
  const span = page
    .locator('.monaco-editor .view-line span span')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .first();
  await span.waitFor({ state: 'visible', timeout: 20_000 });
  const box = await span.boundingBox();
  // Two moves: the editor shows a hover after the mouse rests on a word.
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  await page.waitForSelector('.monaco-hover-content .rendered-markdown', { state: 'visible', timeout: 20_000 });
  await page.waitForTimeout(1200);
}

/** Selects an event of a machine in the Machines view by its label, opening its details (preview mode). */
async function openEventDetails(page, serialNumber, label) {
  const machine = page.locator('.monaco-list-row[aria-level="2"]', { hasText: serialNumber }).first();
  await machine.waitFor({ state: 'visible', timeout: 20_000 });
  if ((await machine.getAttribute('aria-expanded')) !== 'true') await machine.click();
  // An event row (level 3), not a machine row whose description names the same type.
  await page.locator('.monaco-list-row[aria-level="3"]', { hasText: label }).first().click();
  await page.waitForSelector('iframe.webview', { state: 'attached', timeout: 20_000 });
  await page.waitForTimeout(2000);
}

/** Waits for the notification toast whose text contains `text` (a watched machine's outcome), up to `timeoutMs`. */
async function waitForToast(page, text, timeoutMs = 240_000) {
  await page.locator('.notification-toast', { hasText: text }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  // Let the toast's entry animation finish.
  await page.waitForTimeout(1500);
}

/** The board's page: the webview's outer frame, then the page's own frame inside it. */
function boardPage(page) {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

/** Opens the onboarding board for the serial numbers in the active file (the demo opens config/line3.yaml). */
async function openBoardForActiveFile(page) {
  await page.locator('.tab', { hasText: 'line3.yaml' }).first().click();
  await runCommand(page, 'Onboarding Events: Open Onboarding Board');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Active File' }).first().click();
  await boardPage(page).getByText('8 machines: 3 onboarded').waitFor({ state: 'visible', timeout: 30_000 });
}

export const scenarios = {
  /**
   * The board for line 3, then Developer: Reload Window: the board comes back with its set and its
   * sort (Duration), as a person finds it after a reload.
   */
  async 'board-restore'(page) {
    await openBoardForActiveFile(page);
    await boardPage(page)
      .getByRole('button', { name: /Duration/ })
      .click();
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await page.locator('.tab', { hasText: 'Board: Serial Numbers in line3.yaml' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await boardPage(page).getByText('8 machines: 3 onboarded').waitFor({ state: 'visible', timeout: 60_000 });
    await boardPage(page)
      .locator('[role="columnheader"][aria-sort="ascending"]', { hasText: 'Duration' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(1500);
  },

  /** Copy as Markdown Table on the board: the status bar says it was copied (sighted users see the page's live region not). */
  async 'board-copy'(page) {
    await openBoardForActiveFile(page);
    await boardPage(page)
      .getByRole('button', { name: /Copy as Markdown Table/ })
      .click();
    await page.locator('.statusbar-item', { hasText: 'Copied 8 rows' }).first().waitFor({ state: 'visible', timeout: 5_000 });
  },

  /** MCP: List Servers shows "Onboarding Events"; Start Server; the list again, with the server running. */
  async 'mcp-servers'(page) {
    await runCommand(page, 'MCP: List Servers');
    const server = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Onboarding Events' }).first();
    await server.waitFor({ state: 'visible', timeout: 20_000 });
    await server.click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Start Server' }).first().click();
    // VS Code opens the server's output: it says when the server runs and how many tools it offered.
    await page
      // A line of the output editor, whose words are separate spans (spaces as no-break spaces).
      .locator('.view-line', { hasText: /Discovered\s+\d+\s+tools/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await runCommand(page, 'MCP: List Servers');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: /Onboarding Events\s*Running/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForTimeout(800);
  },
  /** Hovers the first serial number in the demo's YAML file. */
  async hover(page) {
    await hoverText(page, 'MX-4711-A0023');
  },

  /** Opens an event's details from the tree, then hovers a serial number in the editor: the issue 17 layout. */
  async 'details-hover'(page) {
    await openEventDetails(page, 'PRS-0900-A0314', 'ONBOARDING_FAILED');
    await page.locator('.tab', { hasText: 'line3.yaml' }).first().click();
    await page.waitForTimeout(800);
    await hoverText(page, 'PRS-0900-A0314');
  },

  /** The demo watches two machines (scripts/demo.mjs): the failure's warning, with the status bar item "Watching 1 · 1 failed". */
  async 'watch-failed'(page) {
    await waitForToast(page, 'failed to onboard');
  },

  /** Both outcomes: the onboarded notification above the failure's, and the status bar item after them. */
  async 'watch-onboarded'(page) {
    await waitForToast(page, 'failed to onboard');
    await waitForToast(page, 'onboarded in');
  },

  /** Opens an event's details from the tree. */
  async details(page) {
    await openEventDetails(page, 'PRS-0900-A0314', 'ONBOARDING_FAILED');
  },

  /** Sign In with every value right but the password: the error shows as a toast with "Edit Sign-In". */
  async 'wrong-password'(page, { api, credentials }) {
    await runCommand(page, 'Onboarding Events: Sign In');
    const answers = [
      api.baseUrl,
      api.authUrl,
      credentials.clientId,
      credentials.clientSecret,
      credentials.username,
      'not-the-password',
      'Demo',
    ];
    for (const answer of answers) {
      await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
      await page.waitForTimeout(400);
      // Each step may be pre-filled (and selected): typing replaces it.
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(answer);
      await page.keyboard.press('Enter');
    }
    await page.waitForSelector('.notification-toast .codicon-error', { state: 'visible', timeout: 20_000 });
    // Let the progress toast fade out and the error toast's entry animation finish.
    await page.waitForTimeout(2500);
  },

  /** Opens the extension's Get Started walkthrough (contributes.walkthroughs). */
  async walkthrough(page) {
    await runCommand(page, 'Welcome: Open Walkthrough');
    await page.waitForTimeout(800);
    await page.keyboard.type('Get Started with Onboarding Events');
    await page.waitForTimeout(800);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.gettingStartedContainer', { state: 'visible', timeout: 20_000 });
    await page.waitForTimeout(2500);
  },
};
