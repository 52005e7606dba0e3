// Links from outside: the URI handler for
//   vscode://onboarding-events.onboarding-events/machine?serial=…&environment=…&timestamp=…
// and "Copy Link to Machine" (tree items, hovers, the details panel's context
// menu, quick fixes), with "Copy as curl" beside it. A link is untrusted: it is parsed strictly
// (domain/links/machineLink.ts), never signs in or switches environment
// without asking, and does no more than a click in the tree would: reveal
// the machine and, when it names one, open an event's details. A machine the
// user does not list yet is loaded only after the one gate's question
// (workbench/argumentTrust.ts): anyone can write a link, and VS Code's own
// "open this URI?" dialog can be turned off for good.
import * as vscode from 'vscode';
import { definedOnly } from '../../core/common/definedOnly';
import { extensionErrorText } from '../workbench/remedies';
import { inertNotificationText } from '../../core/common/notificationText';
import { curlCommands } from '../../core/domain/links/curlCommands';
import { machineLinkQuery, MACHINE_LINK_PATH, parseMachineLink, type MachineLink } from '../../core/domain/links/machineLink';
import { sameName } from '../../core/domain/session/environmentRules';
import { serialNumberArgument } from '../../core/domain/serialNumbers/serialNumberInput';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import { registerCommands, type CommandFactory, type CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi, MachinesApi } from '../workbench/contracts/features';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import type { Log } from '../workbench/log';

export interface LinksDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly details: DetailsApi;
  readonly log: Log;
  /** Which machines the user lists: a link to one of them loads nothing the view would not load itself. */
  readonly machines: Pick<MachinesApi, 'pinned' | 'recent' | 'workspace'>;
  /** Asks about a machine the user does not list; marks the reveal and switch it runs after its question as our UI's. */
  readonly trust: Pick<ArgumentTrust, 'ownArgument' | 'confirm'>;
}

const t = (message: string, ...args: (string | number | boolean)[]): string => vscode.l10n.t(message, ...args);

class MachineLinks implements vscode.UriHandler {
  constructor(
    private readonly deps: LinksDeps,
    private readonly extensionId: string,
  ) {}

  linkFor(serialNumber: string, timestamp?: number): vscode.Uri {
    const state = this.deps.session.state;
    const link: MachineLink = {
      serialNumber,
      ...(state.kind === 'signed-out' ? {} : { environment: state.environment.name }),
      ...definedOnly({ timestamp }),
    };
    return vscode.Uri.from({
      scheme: vscode.env.uriScheme,
      authority: this.extensionId,
      path: MACHINE_LINK_PATH,
      query: machineLinkQuery(link),
    });
  }

  /** Resolves once the link is shown; a question to the user (sign in, switch) goes on in the background. */
  async handleUri(uri: vscode.Uri): Promise<void> {
    const parsed = parseMachineLink(uri.path, uri.query, t);
    if (!parsed.ok) {
      this.deps.log.warn(`Refused a link: ${parsed.problem}`);
      void vscode.window.showErrorMessage(inertNotificationText(t('This Onboarding Events link cannot be opened: {0}.', parsed.problem)));
      return;
    }
    const { link } = parsed;
    const state = this.deps.session.state;
    if (state.kind !== 'signed-in') {
      // Never signs in by itself: asks, and opens the link after a sign-in the user chose.
      const signIn = t('Sign In');
      void vscode.window
        .showInformationMessage(
          inertNotificationText(t('Sign in to Onboarding Events to open the machine {0}.', link.serialNumber)),
          signIn,
        )
        .then(async (choice) => {
          if (choice !== signIn) return;
          await vscode.commands.executeCommand(COMMANDS.signIn);
          if (this.deps.session.state.kind === 'signed-in') await this.open(link);
        });
      return;
    }
    if (link.environment !== undefined && !sameName(link.environment, state.environment.name)) {
      const target = this.deps.session.environments().find((env) => sameName(env.name, link.environment ?? ''));
      void this.askSwitch(link, state.environment.name, target?.id);
      return;
    }
    await this.open(link);
  }

  /** The link is for another environment: switch only when the user says so, or open here when they choose that. */
  private async askSwitch(link: MachineLink, current: string, targetId: string | undefined): Promise<void> {
    const environment = link.environment ?? '';
    const switchTo = t('Switch to {0}', environment);
    const openHere = t('Open in {0}', current);
    const choices = targetId === undefined ? [openHere] : [switchTo, openHere];
    const message =
      targetId === undefined
        ? t(
            'The link to {0} is for the environment "{1}", which is not signed in here. Open it in "{2}"?',
            link.serialNumber,
            environment,
            current,
          )
        : t('The link to {0} is for the environment "{1}"; you are in "{2}".', link.serialNumber, environment, current);
    const choice = await vscode.window.showWarningMessage(inertNotificationText(message), { modal: true }, ...choices);
    if (choice === undefined) return;
    if (choice === switchTo && targetId !== undefined) {
      await vscode.commands.executeCommand(COMMANDS.switchEnvironment, this.deps.trust.ownArgument({ environment: targetId }));
    }
    await this.open(link);
  }

  private async open(link: MachineLink): Promise<void> {
    const { serialNumber } = link;
    const { machines } = this.deps;
    const listed = [...machines.pinned(), ...machines.recent(), ...(machines.workspace?.() ?? [])].includes(serialNumber);
    if (
      !listed &&
      !(await this.deps.trust.confirm({
        title: t('Another extension or a link asks to show {0} in the Machines view.', serialNumber),
        detail: t('The Machines view then loads its onboarding events with your sign-in, and other extensions can read what it loaded.'),
        action: t('Show'),
      }))
    )
      return;
    // The reveal command owns the reveal's failure message and logging.
    await vscode.commands.executeCommand(COMMANDS.revealMachine, this.deps.trust.ownArgument({ serialNumber }));
    // Unmarked on purpose: anyone can write a link, so the watch command asks the user first (workbench/argumentTrust.ts).
    if (link.watch === true) await vscode.commands.executeCommand(COMMANDS.watchMachine, { serialNumber });
    if (link.timestamp !== undefined) await this.openEvent(serialNumber, link.timestamp);
  }

  private async openEvent(serialNumber: string, timestamp: number): Promise<void> {
    try {
      const result = await this.deps.events.get(serialNumber);
      const event = result.events.find((candidate) => candidate.time.raw === timestamp);
      if (event !== undefined) {
        await this.deps.details.show(event);
        return;
      }
      void vscode.window.showInformationMessage(
        inertNotificationText(t('{0} has no event with the timestamp {1}; the machine is shown instead.', serialNumber, timestamp)),
      );
    } catch (error) {
      void vscode.window.showErrorMessage(
        inertNotificationText(t('Could not load the events of {0}: {1}', serialNumber, extensionErrorText(error, t))),
      );
    }
  }
}

interface CopyDeps {
  readonly links: MachineLinks;
  readonly session: ApiSession;
}

/**
 * The machine a copy command was given, by anyone (workbench/argumentTrust.ts): read once into a
 * plain copy, then by the one serial number parser. Copying sends nothing, so no question follows.
 */
function copiedMachine(arg: unknown): string | undefined {
  return serialNumberArgument(typeof arg === 'string' ? arg : plainArgument(arg, ['serialNumber'], { event: ['serialNumber'] }));
}

/** Copies the machine's link, made external (a web or remote window gets a link that reaches it). */
const copyLinkToMachine: CommandFactory<CopyDeps> =
  ({ links }) =>
  async (arg) => {
    const serialNumber = copiedMachine(arg);
    if (serialNumber === undefined) return undefined;
    const external = await vscode.env.asExternalUri(links.linkFor(serialNumber));
    const text = external.toString(true);
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Copied a link to {0}.', serialNumber)), 3000);
    return text;
  };

/**
 * Copies the token and events requests for the machine as curl commands for an IT ticket
 * (domain/links/curlCommands.ts): the environment's URLs, client id and user name, and
 * variables for the secrets. Also while the stored credentials are refused: that is when a
 * ticket is written.
 */
const copyAsCurl: CommandFactory<CopyDeps> =
  ({ session }) =>
  async (arg) => {
    const serialNumber = copiedMachine(arg);
    if (serialNumber === undefined) return undefined;
    const state = session.state;
    if (state.kind === 'signed-out') {
      void vscode.window.showInformationMessage(
        inertNotificationText(t('Sign in first: the curl commands use the URLs of the environment you sign in to.')),
      );
      return undefined;
    }
    const { apiBaseUrl, authUrl, clientId, username } = state.environment;
    let text: string;
    try {
      text = curlCommands({ apiBaseUrl, authUrl, serialNumber, clientId, username }, t);
    } catch (error) {
      void vscode.window.showErrorMessage(
        inertNotificationText(t('Could not write the curl commands for {0}: {1}', serialNumber, extensionErrorText(error, t))),
      );
      return undefined;
    }
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(inertNotificationText(t('Copied the curl commands for {0}.', serialNumber)), 3000);
    return text;
  };

const LINK_COMMANDS: CommandTable<CopyDeps> = {
  [COMMANDS.copyLinkToMachine]: copyLinkToMachine,
  [COMMANDS.copyAsCurl]: copyAsCurl,
};

/** Registers the URI handler and the copy commands. */
export function registerLinks(context: vscode.ExtensionContext, deps: LinksDeps): void {
  const links = new MachineLinks(deps, context.extension.id);
  context.subscriptions.push(vscode.window.registerUriHandler(links), ...registerCommands(LINK_COMMANDS, { links, session: deps.session }));
}
