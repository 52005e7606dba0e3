// How `npm run demo` starts its local VS Code and what it prints, apart from
// the demo itself so a unit test can read both without starting anything.

/**
 * A person's workbench: notifications on screen (no smoke-test driver) and
 * workspace trust on, as in their own VS Code: the sample folder opens in
 * Restricted Mode until they trust it. Password auth comes with every
 * code-server we start (scripts/vscode/workbench.mjs). VS Code's AI features
 * are on, as they are by default: the tests' workbenches turn them off, and
 * with them VS Code hides its MCP server list, where the demo's user finds
 * "Onboarding Events".
 */
export const demoCodeServerOptions = { workspaceTrust: true, testDriver: false, userSettings: { 'chat.disableAIFeatures': false } };

/** The lines printed for the browser: the address, and the password its login page asks for once. */
export function demoAddressLines(server, folder) {
  const url = `${server.url}/?${new URLSearchParams({ folder })}`;
  return { url, text: `\n  ${url}\n  VS Code password: ${server.password}  (new for each run)\n` };
}

/** On the login page the printed address leads to: types the printed password, as a person would. */
export async function typePassword(page, password) {
  const field = page.locator('input[name="password"]');
  await field.waitFor({ state: 'visible', timeout: 30_000 });
  await field.fill(password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 }), field.press('Enter')]);
}

/**
 * Trusts the sample folder the way a person would from the Restricted Mode
 * banner: Manage Workspace Trust, then Trust. The demo's sign-in helper is an
 * extension without Restricted Mode support, so it starts only then.
 */
export async function trustSampleFolder(page) {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget', { state: 'visible' });
  await page.keyboard.type('Manage Workspace Trust');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Manage Workspace Trust' }).first().click();
  const trust = page.getByRole('button', { name: /^Trust( Folder)?$/i }).first();
  await trust.waitFor({ state: 'visible', timeout: 30_000 });
  await trust.click();
  // The trust editor (a modal editor in VS Code 1.139) has done its part: the picture shows the demo.
  const done = page.getByText('You trust this folder');
  await done.waitFor({ state: 'visible', timeout: 10_000 });
  // Escape closes it when it has the focus, which the demo's sign-in (opening a file, the view) may take away meanwhile.
  for (let attempt = 1; ; attempt++) {
    await done.click().catch(() => {});
    await page.keyboard.press('Escape');
    try {
      await done.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}
