// Demo only: signs in to the local fake API with the demo's clearly fake
// credentials (passed by scripts/demo.mjs in OE_DEMO_SIGN_IN), through the
// same command a user or an automation would use, then shows the sidebar.
// Once per demo run (each run's fake API has its own address): a reload or a
// second window keeps what the user did since (signed out, unpinned) instead
// of signing in and pinning again.
const vscode = require('vscode');

const DONE_KEY = 'demoBootstrap.doneForApi';

exports.activate = async function activate(context) {
  const raw = process.env.OE_DEMO_SIGN_IN;
  if (!raw) return;
  try {
    const demo = JSON.parse(raw);
    if (context.globalState.get(DONE_KEY) === demo.signIn.apiBaseUrl) return;
    await context.globalState.update(DONE_KEY, demo.signIn.apiBaseUrl);
    await vscode.extensions.getExtension('onboarding-events.onboarding-events')?.activate();
    await vscode.commands.executeCommand('onboardingEvents.signIn', demo.signIn);
    for (const serialNumber of demo.pin ?? []) {
      await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber });
    }
    // Machines being commissioned right now: the fake plays their onboarding from the first request on.
    for (const serialNumber of demo.watch ?? []) {
      await vscode.commands.executeCommand('onboardingEvents.watchMachine', { serialNumber });
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (demo.open && folder) {
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, demo.open), { preview: false });
    }
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
  } catch (error) {
    void vscode.window.showErrorMessage(`Demo sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
  }
};

exports.deactivate = function deactivate() {};
