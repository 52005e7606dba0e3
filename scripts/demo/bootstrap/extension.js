// Demo only: signs in to the local fake API with the demo's clearly fake
// credentials (passed by scripts/demo.mjs in OE_DEMO_SIGN_IN), through the
// same command a user or an automation would use, then shows the sidebar.
const vscode = require('vscode');

exports.activate = async function activate() {
  const raw = process.env.OE_DEMO_SIGN_IN;
  if (!raw) return;
  try {
    const demo = JSON.parse(raw);
    await vscode.extensions.getExtension('onboarding-events.onboarding-events')?.activate();
    await vscode.commands.executeCommand('onboardingEvents.signIn', demo.signIn);
    for (const serialNumber of demo.pin ?? []) {
      await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber });
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
