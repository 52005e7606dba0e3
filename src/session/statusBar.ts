// The status-bar entry: the active environment and whether it is signed in.
// A click opens the session menu (switch, sign in, sign out, show log).
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { SessionState } from '../domain/session/sessionState';
import { COMMANDS } from '../workbench/constants';

export class SessionStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    super();
    this.item = this.register(vscode.window.createStatusBarItem('onboardingEvents.session', vscode.StatusBarAlignment.Left, -100));
    this.item.name = vscode.l10n.t('Onboarding Events Sign-In');
    this.item.command = COMMANDS.sessionMenu;
  }

  update(state: SessionState, hasEnvironments: boolean): void {
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    switch (state.kind) {
      case 'signed-in': {
        const env = state.environment;
        this.item.text = `$(account) ${env.name}`;
        this.item.backgroundColor = undefined;
        this.item.accessibilityInformation = { label: vscode.l10n.t('Onboarding Events: signed in to {0} as {1}', env.name, env.username) };
        tooltip.appendMarkdown(`**${vscode.l10n.t('Onboarding Events')}**\n\n`);
        tooltip.appendText(vscode.l10n.t('Signed in to {0} as {1}', env.name, env.username));
        tooltip.appendMarkdown('\n\n');
        tooltip.appendText(vscode.l10n.t('API: {0}', env.apiBaseUrl));
        break;
      }
      case 'credentials-rejected': {
        const env = state.environment;
        this.item.text = `$(warning) ${env.name}`;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        this.item.accessibilityInformation = {
          label: vscode.l10n.t('Onboarding Events: the credentials for {0} no longer work', env.name),
        };
        tooltip.appendMarkdown(`**${vscode.l10n.t('Onboarding Events')}**\n\n`);
        tooltip.appendText(
          vscode.l10n.t('The credentials stored for {0} ({1}) no longer work. Click to sign in again.', env.name, env.username),
        );
        break;
      }
      case 'signed-out':
        this.item.text = `$(account) ${vscode.l10n.t('Onboarding Events: Signed Out')}`;
        this.item.backgroundColor = undefined;
        this.item.accessibilityInformation = { label: vscode.l10n.t('Onboarding Events: signed out') };
        tooltip.appendMarkdown(`**${vscode.l10n.t('Onboarding Events')}**\n\n`);
        tooltip.appendText(
          hasEnvironments
            ? vscode.l10n.t('Signed out. Click to switch to a saved environment or sign in.')
            : vscode.l10n.t('Signed out. Click to sign in.'),
        );
        break;
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }
}
