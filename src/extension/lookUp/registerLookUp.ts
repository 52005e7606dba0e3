// Look Up Machine: a two-step quick pick (a serial number, then its events). The editor reaches it
// through COMMANDS.lookUpMachine with `{ serialNumber }`, not through an import.
import * as vscode from 'vscode';
import { isApiError } from '../../core/client/errors';
import type { OnboardingEvent } from '../../core/client/model';
import { NotSignedInError } from '../../core/eventsCache/eventsCache';
import { errorMessage } from '../../core/common/errors';
import { extensionErrorText } from '../workbench/remedies';
import { Disposable, DisposableStore, toDisposable, type IDisposable } from '../../core/common/lifecycle';
import { defuseThemeIcons } from '../../core/common/markdownText';
import { formatAbsolute, formatRelative } from '../../core/common/time';
import { checkSerialNumber, serialNumberArgument } from '../../core/domain/serialNumbers/serialNumberInput';
import { plainArgument } from '../workbench/argumentTrust';
import { registerCommands, type CommandFactory, type CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { SerialFeatureDeps } from '../workbench/contracts/features';
import { inertNotificationText } from '../../core/common/notificationText';
import { lineText } from '../../core/common/serverText';

export type LookUpDeps = SerialFeatureDeps;

// Quick picks render `$(icon)` with no escape for it, so server text is defused.

export interface EventPickText {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  /** A codicon id that says how the step went. */
  readonly icon: 'error' | 'pass-filled' | 'circle-large-outline';
}

const DETAIL_MAX = 300;

/** `timeZone`: IANA zone for the exact time; the host's zone when absent (tests pin it). */
export function eventPickText(event: OnboardingEvent, now: number, locale: string, timeZone?: string): EventPickText {
  const label = lineText(event.type, 80);
  // The icon reads the label as shown: cleaning removes only invisible characters, never a letter of FAIL or ERROR.
  const type = label.toUpperCase();
  const icon =
    type.includes('FAIL') || type.includes('ERROR') ? 'error' : type.includes('COMPLETED') ? 'pass-filled' : 'circle-large-outline';
  const message = lineText(event.message, DETAIL_MAX);
  return {
    label,
    description: `${formatRelative(event.time.epochMs, now, locale) ?? ''} · ${formatAbsolute(event.time.epochMs, locale, timeZone) ?? String(event.time.raw)}`,
    detail: message === '' ? '—' : message,
    icon,
  };
}

interface SerialItem extends vscode.QuickPickItem {
  readonly serialNumber?: string;
  readonly invalid?: string;
}

type EventItem = vscode.QuickPickItem &
  ({ readonly action: 'event'; readonly event: OnboardingEvent } | { readonly action: 'sign-in' | 'retry' | 'none' });

export class MachineLookUp extends Disposable {
  private active: IDisposable | undefined;

  private readonly pinButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('pin'), tooltip: vscode.l10n.t('Pin Machine') };
  private readonly revealButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('eye'),
    tooltip: vscode.l10n.t('Reveal in Sidebar'),
  };
  private readonly watchButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('eye-watch'),
    tooltip: vscode.l10n.t('Watch Onboarding'),
  };
  private readonly refreshButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('refresh'),
    tooltip: vscode.l10n.t('Refresh'),
  };
  private readonly clearButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('clear-all'),
    tooltip: vscode.l10n.t('Clear Look-up History'),
  };

  constructor(private readonly deps: LookUpDeps) {
    super();
    this.register(
      toDisposable(() => {
        this.active?.dispose();
        this.active = undefined;
      }),
    );
  }

  /** Resolves once the quick pick is shown, so `executeCommand` with an argument returns after the reveal. */
  async run(arg?: unknown): Promise<void> {
    // Read once (workbench/argumentTrust.ts): the check and the look-up see the same serial number.
    const copy = typeof arg === 'string' ? { serialNumber: arg } : plainArgument(arg, ['serialNumber', 'via']);
    const given = serialNumberArgument(copy);
    if (given === undefined) {
      this.chooseMachine();
      return;
    }
    const checked = checkSerialNumber(given, vscode.l10n.t);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(inertNotificationText(checked.message));
      return;
    }
    const serialNumber = checked.serialNumber;
    if (!this.deps.trust.fromOwnUi(copy) && !this.listed(serialNumber)) {
      // Not our own menu or quick fix: a look-up sends a request in the user's name and records the machine as recent.
      const asked = await this.deps.trust.confirm({
        title: vscode.l10n.t('Another extension or a link asks to look up {0}.', serialNumber),
        detail: vscode.l10n.t('Its onboarding events are then loaded with your sign-in, and other extensions can read what was loaded.'),
        action: vscode.l10n.t('Look Up'),
      });
      if (!asked) return;
    }
    this.deps.machines.addRecent(serialNumber);
    // Reveal first: focusing the tree would otherwise close the quick pick.
    await this.reveal(serialNumber);
    this.showEvents(serialNumber, false);
  }

  /** A machine the Machines view already lists: looking it up loads nothing the view would not. */
  private listed(serialNumber: string): boolean {
    const { machines } = this.deps;
    return [...machines.pinned(), ...machines.recent(), ...(machines.workspace?.() ?? [])].includes(serialNumber);
  }

  clearHistory(): void {
    this.deps.machines.clearRecent();
    void vscode.window.showInformationMessage(vscode.l10n.t('Look-up history cleared.'));
  }

  private replaceActive(): DisposableStore {
    this.active?.dispose();
    const store = new DisposableStore();
    this.active = store;
    return store;
  }

  private chooseMachine(): void {
    const disposables = this.replaceActive();
    const pick = disposables.add(vscode.window.createQuickPick<SerialItem>());
    pick.title = vscode.l10n.t('Look Up Machine');
    pick.placeholder = vscode.l10n.t('Type a serial number, or pick a pinned or recent machine');
    pick.matchOnDescription = true;
    const refresh = (): void => {
      pick.items = this.serialItems(pick.value);
      pick.buttons = this.deps.machines.recent().length > 0 ? [this.clearButton] : [];
    };
    refresh();
    disposables.add(pick.onDidChangeValue(refresh));
    disposables.add(
      pick.onDidTriggerButton((button) => {
        if (button === this.clearButton) {
          this.deps.machines.clearRecent();
          refresh();
        }
      }),
    );
    disposables.add(
      pick.onDidTriggerItemButton(async ({ item, button }) => {
        if (item.serialNumber === undefined) return;
        if (button === this.pinButton) {
          await this.pin(item.serialNumber);
          refresh();
        } else if (button === this.revealButton) {
          await this.reveal(item.serialNumber);
        }
      }),
    );
    disposables.add(
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item?.serialNumber === undefined || item.invalid !== undefined) return;
        const serialNumber = item.serialNumber;
        this.deps.machines.addRecent(serialNumber);
        this.showEvents(serialNumber, true);
      }),
    );
    disposables.add(
      pick.onDidHide(() => {
        disposables.dispose();
      }),
    );
    pick.show();
  }

  private serialItems(value: string): SerialItem[] {
    const matcher = this.deps.serialSettings.value.matcher;
    const items: SerialItem[] = [];
    const typed = value.trim();
    const pinned = this.deps.machines.pinned();
    const recent = this.deps.machines.recent().filter((s) => !pinned.includes(s));
    const known = new Set([...pinned, ...recent]);
    if (typed !== '' && !known.has(typed)) {
      const checked = checkSerialNumber(typed, vscode.l10n.t);
      if (checked.ok) {
        const { serialNumber } = checked;
        const looksRight = matcher.isSerialNumber(serialNumber);
        items.push({
          label: defuseThemeIcons(serialNumber),
          iconPath: new vscode.ThemeIcon('search'),
          description: vscode.l10n.t('Look up this serial number'),
          ...(looksRight
            ? {}
            : { detail: vscode.l10n.t('$(warning) Does not match the serial-number pattern setting; it is looked up as typed.') }),
          alwaysShow: true,
          serialNumber,
        });
      } else {
        const reason = checked.message;
        items.push({
          label: defuseThemeIcons(typed.slice(0, 80)),
          iconPath: new vscode.ThemeIcon('error'),
          detail: reason,
          alwaysShow: true,
          invalid: reason,
        });
      }
    }
    const group = (label: string, serials: readonly string[], isPinned: boolean): void => {
      if (serials.length === 0) return;
      items.push({ label, kind: vscode.QuickPickItemKind.Separator });
      for (const serialNumber of serials) {
        items.push({
          label: defuseThemeIcons(serialNumber),
          iconPath: new vscode.ThemeIcon(isPinned ? 'pinned' : 'history'),
          description: this.cachedSummary(serialNumber),
          buttons: isPinned ? [this.revealButton] : [this.pinButton, this.revealButton],
          serialNumber,
        });
      }
    };
    group(vscode.l10n.t('Pinned'), pinned, true);
    group(vscode.l10n.t('Recent'), recent, false);
    return items;
  }

  /** What the cache knows, without a request: "3 events · ONBOARDING_COMPLETED 2 days ago". */
  private cachedSummary(serialNumber: string): string {
    const entry = this.deps.events.peek(serialNumber);
    if (entry === undefined) return '';
    const latest = entry.result.events[0];
    const count = entry.result.events.length === 1 ? vscode.l10n.t('1 event') : vscode.l10n.t('{0} events', entry.result.events.length);
    if (latest === undefined) return count;
    return defuseThemeIcons(
      `${count} · ${lineText(latest.type, 40)} ${formatRelative(latest.time.epochMs, Date.now(), vscode.env.language) ?? ''}`,
    );
  }

  private showEvents(serialNumber: string, canGoBack: boolean): void {
    const disposables = this.replaceActive();
    let request: AbortController | undefined;
    // Closing the pick (or replacing it) cancels its request.
    disposables.add(
      toDisposable(() => {
        request?.abort();
      }),
    );
    const pick = disposables.add(vscode.window.createQuickPick<EventItem>());
    // Opened from an argument, the sidebar reveal moves focus right after: the pick would close unseen.
    pick.ignoreFocusOut = !canGoBack;
    pick.title = vscode.l10n.t('{0} — Onboarding Events', defuseThemeIcons(serialNumber));
    pick.placeholder = vscode.l10n.t('Pick an event to open its details');
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const setButtons = (): void => {
      const pinned = this.deps.machines.pinned().includes(serialNumber);
      pick.buttons = [
        ...(canGoBack ? [vscode.QuickInputButtons.Back] : []),
        this.refreshButton,
        ...(pinned ? [] : [this.pinButton]),
        this.revealButton,
        this.watchButton,
      ];
    };
    setButtons();

    const load = async (force: boolean): Promise<void> => {
      request?.abort();
      const controller = new AbortController();
      request = controller;
      const events = this.deps.events;
      const cached = events.peek(serialNumber);
      if (cached !== undefined) pick.items = this.eventItems(cached.result.events);
      if (!force && cached !== undefined && events.isFresh(serialNumber)) return;
      if (this.deps.session.state.kind !== 'signed-in') {
        pick.items = [this.signInItem()];
        return;
      }
      pick.busy = true;
      if (cached === undefined) pick.placeholder = vscode.l10n.t('Loading events…');
      try {
        const result = await events.get(serialNumber, { signal: controller.signal, force });
        if (controller.signal.aborted) return;
        pick.items =
          result.events.length > 0
            ? this.eventItems(result.events)
            : [{ label: vscode.l10n.t('No onboarding events recorded for this machine.'), action: 'none' }];
        pick.placeholder = vscode.l10n.t('Pick an event to open its details');
      } catch (error) {
        if (controller.signal.aborted) return;
        pick.items = [...this.errorItems(error), ...(cached !== undefined ? this.eventItems(cached.result.events) : [])];
      } finally {
        if (request === controller) pick.busy = false;
      }
    };

    disposables.add(
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item === undefined) return;
        if (item.action === 'event') {
          pick.hide();
          void this.deps.details.show(item.event);
        } else if (item.action === 'sign-in') {
          pick.hide();
          void vscode.commands.executeCommand(COMMANDS.signIn);
        } else if (item.action === 'retry') {
          void load(true);
        }
      }),
    );
    disposables.add(
      pick.onDidTriggerButton(async (button) => {
        if (button === vscode.QuickInputButtons.Back) {
          this.chooseMachine();
        } else if (button === this.refreshButton) {
          await load(true);
        } else if (button === this.pinButton) {
          await this.pin(serialNumber);
          setButtons();
        } else if (button === this.revealButton) {
          await this.reveal(serialNumber);
        } else if (button === this.watchButton) {
          await vscode.commands.executeCommand(COMMANDS.watchMachine, this.deps.trust.ownArgument({ serialNumber }));
        }
      }),
    );
    disposables.add(
      pick.onDidHide(() => {
        disposables.dispose();
      }),
    );
    pick.show();
    void load(false);
  }

  private eventItems(events: readonly OnboardingEvent[]): EventItem[] {
    const now = Date.now();
    const locale = vscode.env.language;
    return events.map((event) => {
      const text = eventPickText(event, now, locale);
      return {
        label: text.label,
        description: text.description,
        detail: text.detail,
        iconPath: new vscode.ThemeIcon(text.icon),
        action: 'event',
        event,
      };
    });
  }

  private signInItem(): EventItem {
    return {
      label: vscode.l10n.t('Sign In…'),
      iconPath: new vscode.ThemeIcon('sign-in'),
      detail: vscode.l10n.t('Sign in to see the onboarding events of this machine.'),
      action: 'sign-in',
    };
  }

  private errorItems(error: unknown): EventItem[] {
    // Refused credentials (the cache told the session) leave the user signed out, as no client does.
    if (error instanceof NotSignedInError || (isApiError(error) && error.kind === 'invalid-credentials')) return [this.signInItem()];
    this.deps.log.warn(`Look-up: ${errorMessage(error)}`);
    const message = extensionErrorText(error, vscode.l10n.t);
    return [
      {
        label: vscode.l10n.t('Could not load onboarding events'),
        iconPath: new vscode.ThemeIcon('error'),
        detail: defuseThemeIcons(message),
        action: 'none',
      },
      { label: vscode.l10n.t('Retry'), iconPath: new vscode.ThemeIcon('refresh'), action: 'retry' },
    ];
  }

  // The machine commands own the pin and the reveal, and their messages and logging.
  private async pin(serialNumber: string): Promise<void> {
    await vscode.commands.executeCommand(COMMANDS.pinMachine, this.deps.trust.ownArgument({ serialNumber }));
  }

  private async reveal(serialNumber: string): Promise<void> {
    await vscode.commands.executeCommand(COMMANDS.revealMachine, this.deps.trust.ownArgument({ serialNumber }));
  }
}

interface LookUpCommandDeps {
  readonly lookUp: MachineLookUp;
}

const lookUpMachine: CommandFactory<LookUpCommandDeps> =
  ({ lookUp }) =>
  (arg) =>
    lookUp.run(arg);

const clearLookupHistory: CommandFactory<LookUpCommandDeps> =
  ({ lookUp }) =>
  () => {
    lookUp.clearHistory();
  };

const LOOK_UP_COMMANDS: CommandTable<LookUpCommandDeps> = {
  [COMMANDS.lookUpMachine]: lookUpMachine,
  [COMMANDS.clearLookupHistory]: clearLookupHistory,
};

export function registerLookUp(context: vscode.ExtensionContext, deps: LookUpDeps): void {
  const lookUp = new MachineLookUp(deps);
  context.subscriptions.push(lookUp, ...registerCommands(LOOK_UP_COMMANDS, { lookUp }));
}
