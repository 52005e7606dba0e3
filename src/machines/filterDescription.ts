// The filter as the view's description and the log show it.
import * as vscode from 'vscode';
import type { EventFilter } from '../domain/events/eventFilter';
import { formatShort } from '../common/time';

export function describeFilter(filter: EventFilter): string {
  const parts: string[] = [];
  if (filter.types && filter.types.length > 0) parts.push(vscode.l10n.t('type: {0}', filter.types.join(', ')));
  if (filter.text !== undefined) parts.push(vscode.l10n.t('text: “{0}”', filter.text));
  if (filter.sinceMs !== undefined)
    parts.push(vscode.l10n.t('since {0}', formatShort(filter.sinceMs, Date.now(), vscode.env.language) ?? String(filter.sinceMs)));
  return vscode.l10n.t('Filtered: {0}', parts.join(' · '));
}
