// Which machines a board shows, and when that changes: the pinned machines,
// the workspace's (the scan's findings), the serial numbers in one file (read
// with the one matcher, again as the file is edited), or a fixed selection.
import * as vscode from 'vscode';
import { Debouncer } from '../../core/common/delays';
import { Disposable } from '../../core/common/lifecycle';
import { normalizeSerialNumber } from '../../core/client/serialNumber';
import type { MachinesApi } from '../workbench/contracts/features';
import type { SerialSettings } from '../workbench/serialSettings';
import { MAX_ROWS, type BoardSet } from './protocol';

/** The part of a file the board reads: a config or a ticket, never a 100 MB log in full. */
const MAX_FILE_CHARS = 5_000_000;
/** URI schemes a board may read a file from (a restored board's URI comes from the page's state). */
const FILE_SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-vfs']);

export interface ResolvedSet {
  readonly serialNumbers: readonly string[];
  readonly label: string;
  /** Machines the set names past MAX_ROWS: left off the board, and the page says how many. */
  readonly beyond: number;
}

export interface BoardSetsDeps {
  readonly machines: MachinesApi;
  readonly serialSettings: SerialSettings;
}

/** The first MAX_ROWS distinct serial numbers, and how many more the set names. */
function distinct(serials: Iterable<string>): Pick<ResolvedSet, 'serialNumbers' | 'beyond'> {
  const seen = new Set(serials);
  const serialNumbers = seen.size > MAX_ROWS ? [...seen].slice(0, MAX_ROWS) : [...seen];
  return { serialNumbers, beyond: seen.size - serialNumbers.length };
}

export function fileUri(set: Extract<BoardSet, { kind: 'file' }>): vscode.Uri | undefined {
  try {
    const uri = vscode.Uri.parse(set.uri, true);
    return FILE_SCHEMES.has(uri.scheme) ? uri : undefined;
  } catch {
    return undefined;
  }
}

function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}

/** The serial numbers of a set now, and how the board names it. */
export async function resolveSet(set: BoardSet, deps: BoardSetsDeps): Promise<ResolvedSet> {
  switch (set.kind) {
    case 'pinned':
      return { ...distinct(deps.machines.pinned()), label: vscode.l10n.t('Pinned Machines') };
    case 'workspace':
      return { ...distinct(deps.machines.workspace?.() ?? []), label: vscode.l10n.t('Machines in the Workspace') };
    case 'serials': {
      const { serialNumbers, beyond } = distinct(set.serialNumbers.map(normalizeSerialNumber));
      // One machine is named by its serial number ("1 Selected Machines" read wrong); a count is of machines, not of the selection's entries.
      const [only] = serialNumbers;
      return {
        serialNumbers,
        beyond,
        label: serialNumbers.length === 1 && only !== undefined ? only : vscode.l10n.t('{0} Selected Machines', serialNumbers.length),
      };
    }
    case 'file': {
      const uri = fileUri(set);
      if (!uri) return { serialNumbers: [], beyond: 0, label: vscode.l10n.t('A File That Cannot Be Read') };
      const label = vscode.l10n.t('Serial Numbers in {0}', fileName(uri));
      try {
        const document = await vscode.workspace.openTextDocument(uri);
        const text = document.getText().slice(0, MAX_FILE_CHARS);
        const matches = deps.serialSettings.value.matcher.findAll(text, MAX_ROWS * 4);
        return { ...distinct(matches.map((m) => normalizeSerialNumber(m.serialNumber))), label };
      } catch {
        return { serialNumbers: [], beyond: 0, label };
      }
    }
  }
}

/** Calls `changed` (after a quiet moment) whenever what `set` names may have changed. */
export class SetFollower extends Disposable {
  private readonly quiet: Debouncer;

  constructor(set: BoardSet, deps: BoardSetsDeps, changed: () => void) {
    super();
    this.quiet = this.register(new Debouncer(changed, 300, 'quiet'));
    const trigger = (): void => {
      this.quiet.trigger();
    };
    switch (set.kind) {
      case 'pinned':
      case 'workspace':
        if (deps.machines.onDidChange) this.register(deps.machines.onDidChange(trigger));
        return;
      case 'file': {
        const uri = fileUri(set)?.toString();
        if (uri === undefined) return;
        this.register(
          vscode.workspace.onDidChangeTextDocument((event) => {
            if (event.document.uri.toString() === uri) trigger();
          }),
        );
        this.register(deps.serialSettings.onDidChange(trigger));
        return;
      }
      case 'serials':
        // A selection is what it was when the board opened; nothing to follow.
        return;
    }
  }
}
