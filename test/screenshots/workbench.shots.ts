import * as vscode from 'vscode';
import { snap } from './snap';

describe('Workbench', () => {
  it('shows the Onboarding Events activity-bar entry and the Machines view', async () => {
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
    await snap('machines-view-signed-out');
  });
});
