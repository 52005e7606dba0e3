// Demo only: signs in to the local fake API with the demo's clearly fake
// credentials (passed by scripts/demo.mjs in OE_DEMO_SIGN_IN), through the
// same command a user or an automation would use, then shows the sidebar.
// Once per demo run (each run's fake API has its own address): a reload or a
// second window keeps what the user did since (signed out, unpinned) instead
// of signing in and pinning again.
//
// Signing in and opening the sample file are separate steps with separate
// messages: VS Code refuses to open an editor when another one opened in the
// meantime (the user closing the Workspace Trust editor just then), which
// says nothing about the sign-in. The sample is tried once more after a
// moment, and only a second failure is told, as what it is.

const DONE_KEY = 'demoBootstrap.doneForApi';
/** How long to let the editor that got in the way settle before opening the sample again. */
const REOPEN_AFTER_MS = 750;

const messageOf = (error) => (error instanceof Error ? error.message : String(error));
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The demo's steps. Resolves when done; failures are shown, never thrown. */
async function setUpDemo(vscode, demo) {
  try {
    await vscode.extensions.getExtension('onboarding-events.onboarding-events')?.activate();
    await vscode.commands.executeCommand('onboardingEvents.signIn', demo.signIn);
  } catch (error) {
    void vscode.window.showErrorMessage(`Demo sign-in failed: ${messageOf(error)}`);
    return;
  }
  try {
    for (const serialNumber of demo.pin ?? []) {
      await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber });
    }
    // Machines being commissioned right now: the fake plays their onboarding from the first request on.
    for (const serialNumber of demo.watch ?? []) {
      await vscode.commands.executeCommand('onboardingEvents.watchMachine', { serialNumber });
    }
  } catch (error) {
    void vscode.window.showErrorMessage(`Demo: signed in, but pinning or watching the demo machines failed: ${messageOf(error)}`);
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (demo.open && folder) {
    const sample = vscode.Uri.joinPath(folder.uri, demo.open);
    try {
      await vscode.window.showTextDocument(sample, { preview: false });
    } catch {
      await pause(REOPEN_AFTER_MS);
      try {
        await vscode.window.showTextDocument(sample, { preview: false });
      } catch (error) {
        void vscode.window.showWarningMessage(`Demo: signed in; the sample file ${demo.open} could not be opened: ${messageOf(error)}`);
      }
    }
  }
  try {
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
  } catch {
    // The sidebar stays as it was: nothing the user needs to hear about.
  }
}

exports.activate = async function activate(context) {
  const raw = process.env.OE_DEMO_SIGN_IN;
  if (!raw) return;
  const vscode = require('vscode');
  let demo;
  try {
    demo = JSON.parse(raw);
  } catch (error) {
    void vscode.window.showErrorMessage(`Demo sign-in failed: OE_DEMO_SIGN_IN is not JSON: ${messageOf(error)}`);
    return;
  }
  if (context.globalState.get(DONE_KEY) === demo.signIn.apiBaseUrl) return;
  await context.globalState.update(DONE_KEY, demo.signIn.apiBaseUrl);
  await setUpDemo(vscode, demo);
};

exports.deactivate = function deactivate() {};
