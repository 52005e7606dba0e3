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

export const scenarios = {
  /** Sign In with every value right but the password: the error shows as a toast with "Edit Sign-In". */
  async 'wrong-password'(page, { api, credentials }) {
    await runCommand(page, 'Onboarding Events: Sign In');
    const answers = [api.baseUrl, api.authUrl, credentials.clientId, credentials.clientSecret, credentials.username, 'not-the-password', 'Demo'];
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
