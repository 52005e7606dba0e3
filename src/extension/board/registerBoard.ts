// Open Onboarding Board for a set of machines; one panel that follows its set, and a serializer that
// brings it back after a reload.
import * as vscode from 'vscode';
import { serialNumberArgument } from '../../core/domain/serialNumbers/serialNumberInput';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import type { MachinesApi } from '../workbench/contracts/features';
import { registerCommands, type CommandTable } from '../workbench/commands';
import { COMMANDS, WEBVIEWS } from '../workbench/constants';
import { webviewOptions } from '../workbench/webviewHost';
import { BoardPanel, type BoardContext, type BoardDeps } from './boardPanel';
import { persistedState, type BoardSet } from './protocol';

export type { BoardDeps } from './boardPanel';

export interface BoardFeatureDeps extends BoardDeps {
  readonly trust: ArgumentTrust;
}

export interface Board {
  open(set: BoardSet): Promise<void>;
}

/**
 * Only machines the tree lists: a forged node names no other machine, and such a board loads nothing
 * the view would not. A file is no menu's argument: it is asked about (`askedFileSet`).
 */
export function setFromArguments(args: readonly unknown[], machines: MachinesApi): BoardSet | undefined {
  const [first, second] = args;
  // Read once, into a plain copy, before anything decides on it (workbench/argumentTrust.ts).
  const group = plainArgument(first, ['kind', 'group']);
  if (group === undefined) return undefined;
  if (group['kind'] === 'group') {
    if (group['group'] === 'pinned') return { kind: 'pinned' };
    if (group['group'] === 'workspace') return { kind: 'workspace' };
    if (group['group'] === 'recent') return { kind: 'serials', serialNumbers: machines.recent() };
    return undefined;
  }
  const listed = new Set([...machines.pinned(), ...machines.recent(), ...(machines.workspace?.() ?? [])]);
  const nodes: readonly unknown[] = Array.isArray(second) && second.length > 0 ? second : [first];
  const serialNumbers = [...new Set(nodes.map(serialNumberArgument).filter((s): s is string => s !== undefined && listed.has(s)))];
  return serialNumbers.length > 0 ? { kind: 'serials', serialNumbers } : undefined;
}

/** Its serial numbers are machines the user never listed, so the gate asks before the board loads them. */
async function askedFileSet(argument: unknown, trust: ArgumentTrust): Promise<BoardSet | undefined | 'declined'> {
  if (!(argument instanceof vscode.Uri)) return undefined;
  const uri = argument.toString();
  const agreed = await trust.confirm({
    title: vscode.l10n.t('Open the onboarding board for the serial numbers in {0}?', vscode.workspace.asRelativePath(argument)),
    detail: vscode.l10n.t(
      'Another extension or a link asks for it. The board loads the events of the machines the file names from the API, in your name.',
    ),
    action: vscode.l10n.t('Open Board'),
  });
  return agreed ? { kind: 'file', uri } : 'declined';
}

async function pickSet(machines: MachinesApi): Promise<BoardSet | undefined> {
  type Item = vscode.QuickPickItem & { readonly set: BoardSet };
  const items: Item[] = [
    {
      label: `$(pinned) ${vscode.l10n.t('Pinned Machines')}`,
      description: String(machines.pinned().length),
      set: { kind: 'pinned' },
    },
    {
      label: `$(folder) ${vscode.l10n.t('Machines in the Workspace')}`,
      description: String(machines.workspace?.().length ?? 0),
      set: { kind: 'workspace' },
    },
  ];
  const editor = vscode.window.activeTextEditor;
  if (editor)
    items.unshift({
      label: `$(file) ${vscode.l10n.t('Serial Numbers in the Active File')}`,
      description: vscode.workspace.asRelativePath(editor.document.uri),
      set: { kind: 'file', uri: editor.document.uri.toString() },
    });
  const selected = machines.selected?.() ?? [];
  if (selected.length > 0)
    items.push({
      label: `$(list-selection) ${vscode.l10n.t('Selected in the Machines View')}`,
      description: String(selected.length),
      set: { kind: 'serials', serialNumbers: selected },
    });
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Which machines should the board show?') });
  return picked?.set;
}

interface BoardCommandDeps {
  readonly board: Board;
  readonly machines: MachinesApi;
  readonly trust: ArgumentTrust;
}

const BOARD_COMMANDS: CommandTable<BoardCommandDeps> = {
  [COMMANDS.openBoard]:
    ({ board, machines, trust }) =>
    async (...args: unknown[]) => {
      const file = await askedFileSet(args[0], trust);
      if (file === 'declined') return;
      const set = file ?? setFromArguments(args, machines) ?? (await pickSet(machines));
      if (!set) return;
      // The workspace's machines are what its scan found: a board of a workspace never scanned starts one (the board follows it).
      if (set.kind === 'workspace' && (machines.workspace?.().length ?? 0) === 0)
        void vscode.commands.executeCommand(COMMANDS.scanWorkspace);
      await board.open(set);
    },
};

export function registerBoard(context: vscode.ExtensionContext, deps: BoardFeatureDeps): Board {
  const boardContext: BoardContext = { ...deps, extensionUri: context.extensionUri };
  let current: BoardPanel | undefined;
  const track = (panel: BoardPanel): BoardPanel => {
    current = panel;
    panel.onDidDispose(() => {
      if (current === panel) current = undefined;
    });
    return panel;
  };
  const board: Board = {
    open: async (set) => {
      if (current) {
        current.panel.reveal(current.panel.viewColumn);
        await current.setSet(set);
        return;
      }
      const panel = vscode.window.createWebviewPanel(
        WEBVIEWS.board,
        vscode.l10n.t('Onboarding Board'),
        vscode.ViewColumn.Active,
        webviewOptions(context.extensionUri),
      );
      await track(new BoardPanel(panel, set, boardContext)).setSet(set);
    },
  };
  context.subscriptions.push(
    { dispose: () => current?.dispose() },
    ...registerCommands(BOARD_COMMANDS, { board, machines: deps.machines, trust: deps.trust }),
    vscode.window.registerWebviewPanelSerializer(WEBVIEWS.board, {
      deserializeWebviewPanel: (panel: vscode.WebviewPanel, kept: unknown) => {
        // The page kept its set, sort and filter; anything else is not ours to show.
        const state = persistedState(kept);
        if (state === undefined || current) {
          deps.log.warn('Onboarding board: a restored panel was closed because its saved state is not a board.');
          panel.dispose();
          return Promise.resolve();
        }
        return track(new BoardPanel(panel, state.set, boardContext)).setSet(state.set);
      },
    }),
  );
  return board;
}
