// What the Machines view shows around its tree: the context keys its menus
// and welcome views read, the filter as description and message, and the
// badge counting events the user has not seen. Called after each batch of
// tree changes; a value that did not change is not sent again.
import * as vscode from 'vscode';
import { CONTEXT_KEYS } from '../workbench/constants';
import { setContext } from '../workbench/contextKeys';
import { describeFilter } from './filterDescription';
import type { MachinesModel } from './machinesModel';

export function updateViewChrome(view: vscode.TreeView<unknown>, model: MachinesModel, signedIn: boolean): void {
  setContext(CONTEXT_KEYS.hasMachines, model.hasMachines());
  setContext(CONTEXT_KEYS.filtered, model.filtered);
  const description = model.filtered ? describeFilter(model.filter) : '';
  if (view.description !== description) view.description = description;
  // The description is hidden when the view is the container's only one: say it above the tree as well.
  const message = model.filtered && signedIn ? description : '';
  if (view.message !== message) view.message = message;
  const unseen = signedIn ? model.unseenTotal() : 0;
  if (unseen === 0) {
    if (view.badge !== undefined) view.badge = undefined;
  } else if (view.badge?.value !== unseen) {
    view.badge = { value: unseen, tooltip: vscode.l10n.t('{0} onboarding events you have not seen yet', unseen) };
  }
}
