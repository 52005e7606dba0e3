// Turns tree elements into TreeItems. Everything from the server (types,
// messages, asset ids, links) is rendered as text: labels and descriptions are
// plain strings, and tooltips are untrusted MarkdownStrings built with
// appendText, which escapes Markdown, and with HTML support off.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../../core/client/model';
import {
  eventState,
  machineState,
  STATE_LOOKS,
  stateWord,
  type EventStateRules,
  type MachineState,
} from '../../core/domain/events/eventState';
import { failureKind } from '../../core/eventsCache/eventsCache';
import type { MachinesModel, MachineSummary } from './machinesModel';
import { formatAbsolute, formatRelative, formatShort, formatUtcIso, type RelativeStyle } from '../../core/common/time';
import { COMMANDS } from '../workbench/constants';
import type { ErrorNode, EventNode, GroupNode, LoadMoreNode, MachineNode, MachinesNode, PlaceholderNode } from './treeNodes';
import { displayText } from '../../core/common/notificationText';
import type { Localize } from '../../core/common/localize';
import { extensionErrorText } from '../workbench/remedies';
import { escapeMarkdown } from '../../core/common/markdownText';
import { lineText, markdownText, tooltipText } from '../../core/common/serverText';
import { progressWords, type ProgressAnswer } from '../../core/domain/progress/machineProgress';
import { MAX_MATCHES_PER_FILE } from '../../core/domain/workspaceScan/workspaceSerials';

export interface RenderContext {
  readonly model: MachinesModel;
  readonly now: number;
  readonly locale: string;
}

/** The exact time, or the raw number for an instant no date can hold (never thrown at the tree). */
function exactTime(epochMs: number, context: RenderContext): string {
  return formatAbsolute(epochMs, context.locale) ?? String(epochMs);
}

function age(epochMs: number, context: RenderContext): string {
  return formatRelative(epochMs, context.now, context.locale) ?? String(epochMs);
}

/** "3 mo. ago": row descriptions share a narrow sidebar with the label and the inline actions; screen readers get the long form. */
function shortAge(epochMs: number, context: RenderContext, style: RelativeStyle = 'short'): string {
  return formatRelative(epochMs, context.now, context.locale, style) ?? String(epochMs);
}

const t: Localize = (message, ...args) => vscode.l10n.t(message, ...args);

// Rows at the default sidebar width show some twenty characters of a label
// before cutting it off: the label says what happened in a few words, and the
// full text goes to the description and the tooltip.

/** An error row's label by the error's kind (core/errors.ts ApiErrorKind): the server's message is in the tooltip. */
export function errorRowLabel(errorKind: string | undefined, t: Localize): string {
  switch (errorKind) {
    case 'server':
      return t('Server error');
    case 'network':
      return t('API not reachable');
    case 'timeout':
      return t('Request timed out');
    case 'rate-limited':
      return t('Rate limited');
    case 'permission-denied':
      return t('Access denied');
    case 'not-found':
      return t('Not found');
    case 'invalid-credentials':
      return t('Sign-in rejected');
    case 'protocol':
      return t('Unexpected answer');
    case 'invalid-input':
      return t('Invalid serial number');
    default:
      return t('Could not load events');
  }
}

/**
 * A group's screen-reader label, "In This Workspace, 6": the label and its count,
 * the same until the count changes. Without one, VS Code reads the tooltip,
 * whose time of the last scan changes with every scan.
 */
export function groupAccessibilityLabel(label: string, description: string | boolean | undefined): string {
  return typeof description === 'string' && description !== '' ? `${label}, ${description}` : label;
}

function untrustedMarkdown(): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString('', false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return markdown;
}

export function renderNode(node: MachinesNode, context: RenderContext): vscode.TreeItem {
  switch (node.kind) {
    case 'group':
      return renderGroup(node, context);
    case 'machine':
      return renderMachine(node, context);
    case 'event':
      return renderEvent(node, context);
    case 'load-more':
      return renderLoadMore(node, context);
    case 'error':
      return renderError(node);
    case 'placeholder':
      return renderPlaceholder(node);
  }
}

/**
 * A row's Markdown tooltip, built when it is hovered (TreeDataProvider.resolveTreeItem), not for every row drawn:
 * a group of thousands is drawn in one turn. Rows with a plain-text tooltip keep it in renderNode (screen readers read it).
 */
export function nodeTooltip(node: MachinesNode, context: RenderContext): vscode.MarkdownString | undefined {
  switch (node.kind) {
    case 'machine':
      return machineRowTooltip(node, context);
    case 'event':
      return eventTooltip(node.event, context);
    case 'error':
      return errorTooltip(node);
    default:
      return undefined;
  }
}

function groupLabel(node: GroupNode): string {
  switch (node.group) {
    case 'pinned':
      return vscode.l10n.t('Pinned');
    case 'recent':
      return vscode.l10n.t('Recent');
    case 'workspace':
      return vscode.l10n.t('In This Workspace');
  }
}

function renderGroup(node: GroupNode, { model }: RenderContext): vscode.TreeItem {
  // The workspace group scans when expanded, so it starts collapsed.
  const item = new vscode.TreeItem(
    groupLabel(node),
    node.group === 'workspace' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = node.id;
  item.contextValue = `group.${node.group}`;
  item.iconPath = new vscode.ThemeIcon(node.group === 'pinned' ? 'pinned' : node.group === 'recent' ? 'history' : 'folder-library');
  const scan = model.workspaceScan;
  if (node.group !== 'workspace') {
    item.description = String(model.machinesIn(node.group).length);
  } else if (scan.kind === 'scanned') {
    item.description = scan.capped
      ? vscode.l10n.t('{0} (first {1} files)', model.machinesIn('workspace').length, scan.filesScanned)
      : String(model.machinesIn('workspace').length);
    // The time of the scan, not "now": a relative time is frozen when the item is rendered.
    item.tooltip = vscode.l10n.t(
      'Serial numbers found in {0} workspace files, scanned {1}.',
      scan.filesScanned,
      formatShort(scan.at, Date.now(), vscode.env.language) ?? '',
    );
  } else if (scan.kind === 'not-scanned') {
    item.description = vscode.l10n.t('expand to scan');
  }
  // Without it, screen readers read the tooltip, which changes with every scan.
  item.accessibilityInformation = { label: groupAccessibilityLabel(groupLabel(node), item.description) };
  return item;
}

/**
 * The state of a machine whose request failed with nothing kept, as the hover,
 * the inline status and the board say it: unknown when the API answered "not
 * found", unavailable otherwise (one word and one look for it in every view).
 */
function failedState(summary: MachineSummary, rules: EventStateRules): MachineState {
  return machineState({ errorKind: summary.failure === undefined ? 'error' : failureKind(summary.failure) }, rules);
}

/** A machine's progress as its row shows it: the figures only on a loaded, current row (a stale one's time at its step is not known). */
function rowProgress(summary: MachineSummary, context: RenderContext): ProgressAnswer {
  return summary.loaded && !summary.stale ? context.model.progress(summary.serialNumber) : undefined;
}

function stateIcon(summary: MachineSummary, rules: EventStateRules, progress: ProgressAnswer): vscode.ThemeIcon {
  switch (summary.state) {
    case 'loading':
      return new vscode.ThemeIcon('loading~spin');
    case 'not-loaded':
      return new vscode.ThemeIcon('circle-large-outline');
    case 'error': {
      const look = STATE_LOOKS[failedState(summary, rules)];
      return new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color));
    }
    case 'stale':
      return new vscode.ThemeIcon('history', new vscode.ThemeColor('list.warningForeground'));
    case 'created':
      return new vscode.ThemeIcon('vm-active', new vscode.ThemeColor('testing.iconPassed'));
    case 'ok':
      // Stalled qualifies "in progress": the same icon, in the warning colour the tree's other warnings wear.
      return progress?.kind === 'progress' && progress.stalled
        ? new vscode.ThemeIcon('vm-outline', new vscode.ThemeColor('list.warningForeground'))
        : new vscode.ThemeIcon('vm-outline');
  }
}

export function machineDescription(
  summary: MachineSummary,
  context: RenderContext,
  style: RelativeStyle = 'short',
  /** Another feature's text in place of the state word and age (a watch's newest event). */
  instead?: string,
): string {
  return describeMachine(summary, context, rowProgress(summary, context), style, instead);
}

/** machineDescription with the row's progress worked out once: a drawn row needs it three times. */
function describeMachine(
  summary: MachineSummary,
  context: RenderContext,
  progress: ProgressAnswer,
  style: RelativeStyle,
  instead: string | undefined,
): string {
  const parts: string[] = [];
  // Stale first: it qualifies everything after it, and must not be cut off in a narrow sidebar.
  if (summary.stale && summary.fetchedAt !== undefined) {
    parts.push(vscode.l10n.t('stale, from {0}', formatShort(summary.fetchedAt, context.now, context.locale) ?? String(summary.fetchedAt)));
  }
  if (summary.unseen > 0) parts.push(vscode.l10n.t('{0} new', summary.unseen));
  const { view } = summary;
  if (progress?.kind === 'progress') {
    // The step and what is usually left, or the stall, say more than the newest event's age (or a watch's newest event).
    parts.push(`${stateWord('in-progress', t)} · ${progressWords(progress, t, lineText).line}`);
  } else if (instead !== undefined) {
    parts.push(instead);
  } else if (!summary.loaded) {
    parts.push(
      summary.state === 'error'
        ? stateWord(failedState(summary, context.model.eventStates()), t)
        : summary.loading
          ? vscode.l10n.t('loading…')
          : '',
    );
  } else if (view.latest && view.newest) {
    // A state word, not the raw type ("ONBOARDING_COMPLETED" is cut off at the default sidebar width): the type is in the tooltip and the rows below.
    parts.push(
      `${stateWord(eventState(view.newest, context.model.eventStates()), t)} · ${shortAge(view.newest.time.epochMs, context, style)}`,
    );
  } else if (view.total === 0) {
    parts.push(vscode.l10n.t('no events'));
  } else {
    parts.push(vscode.l10n.t('no matching events'));
  }
  return parts.filter((part) => part !== '').join(' · ');
}

export function machineTooltip(summary: MachineSummary, context: RenderContext, foundIn?: readonly string[]): vscode.MarkdownString {
  const { view } = summary;
  const md = untrustedMarkdown();
  // Before any appendText: it escapes `$(icon)` only while supportThemeIcons is
  // already on, so set later, a server's "$(error)" in a type or message would
  // render as our own error icon.
  md.supportThemeIcons = true;
  md.appendMarkdown('**');
  md.appendText(summary.serialNumber);
  md.appendMarkdown('**');
  md.appendMarkdown(summary.pinned ? ` — ${vscode.l10n.t('pinned')}` : '');
  md.appendMarkdown('\n\n');
  if (summary.loaded) {
    const count =
      view.events.length === view.total
        ? view.total === 1
          ? vscode.l10n.t('1 event')
          : vscode.l10n.t('{0} events', view.total)
        : vscode.l10n.t('{0} of {1} events match the filter', view.events.length, view.total);
    md.appendText(count);
    md.appendMarkdown('\n\n');
    const latest = view.latest ?? view.newest;
    if (latest) {
      // Server text on a Markdown surface takes the Markdown renderer: lineText's defused "$\u200a(" would pass
      // appendText's icon escaping with a bare "$" left in the source.
      md.appendMarkdown(
        vscode.l10n.t(
          'Latest: {0}, {1} ({2})',
          markdownText(latest.type),
          escapeMarkdown(exactTime(latest.time.epochMs, context)),
          escapeMarkdown(age(latest.time.epochMs, context)),
        ),
      );
      md.appendMarkdown('\n\n');
    }
    appendProgress(md, rowProgress(summary, context));
    if (view.created?.assetId !== undefined) {
      md.appendText(vscode.l10n.t('Machine created: asset {0}', view.created.assetId));
      md.appendMarkdown('\n\n');
    }
  }
  if (summary.fetchedAt !== undefined) {
    md.appendText(vscode.l10n.t('Last refresh: {0} ({1})', exactTime(summary.fetchedAt, context), age(summary.fetchedAt, context)));
    md.appendMarkdown('\n\n');
  }
  if (summary.stale) {
    md.appendMarkdown('$(history) ');
    md.appendText(
      summary.failure
        ? vscode.l10n.t(
            'Stale: the last refresh failed, so this is the result from {0}.',
            summary.fetchedAt === undefined ? '?' : exactTime(summary.fetchedAt, context),
          )
        : vscode.l10n.t(
            'Stale: kept from {0}; it refreshes when the API can be reached.',
            summary.fetchedAt === undefined ? '?' : exactTime(summary.fetchedAt, context),
          ),
    );
    md.appendMarkdown('\n\n');
  }
  if (summary.failure) {
    md.appendMarkdown('$(error) ');
    md.appendText(extensionErrorText(summary.failure.error, t));
    md.appendMarkdown('\n\n');
  }
  if (foundIn && foundIn.length > 0) {
    md.appendText(vscode.l10n.t('Found in: {0}', foundIn.join(', ')));
    md.appendMarkdown('\n\n');
  }
  return md;
}

/**
 * The progress in full: step, time to go, stall, missing or out-of-order steps, what it rests on and how it was
 * learned. Our own words as Markdown (they carry no syntax); the server's step types through markdownText.
 */
function appendProgress(md: vscode.MarkdownString, progress: ProgressAnswer): void {
  if (progress === undefined) return;
  const words = progressWords(progress, t, markdownText);
  const lines =
    progress.kind === 'not-enough'
      ? [words.restsOn]
      : [
          [words.step, words.toGo].filter((part) => part !== undefined).join(' · '),
          ...(words.stalled === undefined
            ? []
            : [`$(warning) ${words.stalled}`, ...(words.stallRule === undefined ? [] : [words.stallRule])]),
          ...(words.abandoned === undefined ? [] : [`$(circle-slash) ${words.abandoned}`]),
          ...[words.reasons, words.oddities].filter((part) => part !== undefined),
          // The kind it was learned from only where it was learned (the steps setting pools nothing).
          progress.source === 'learned' && words.cohort !== undefined ? `${words.restsOn} · ${words.cohort}` : words.restsOn,
        ];
  md.appendMarkdown(`${lines.join('  \n')}\n\n_${words.how}_\n\n`);
}

function renderMachine(node: MachineNode, context: RenderContext): vscode.TreeItem {
  const summary = context.model.summary(node.serialNumber);
  const decoration = context.model.decoration(node.serialNumber);
  const item = new vscode.TreeItem(node.serialNumber, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  const progress = rowProgress(summary, context);
  item.description = describeMachine(summary, context, progress, 'short', decoration?.description);
  // A loading spinner still wins: it says a request is on its way right now.
  item.iconPath =
    decoration?.icon !== undefined && summary.state !== 'loading'
      ? new vscode.ThemeIcon(decoration.icon)
      : stateIcon(summary, context.model.eventStates(), progress);
  // machine.<pinned|unpinned>.<group>[.watched][.events]: menus match on this (package.json view/item/context).
  item.contextValue = `machine.${summary.pinned ? 'pinned' : 'unpinned'}.${node.group}${decoration?.watched === true ? '.watched' : ''}${summary.view.total > 0 ? '.events' : ''}`;
  item.accessibilityInformation = {
    label: `${node.serialNumber}, ${describeMachine(summary, context, progress, 'long', decoration?.description)}`,
  };
  return item;
}

function machineRowTooltip(node: MachineNode, context: RenderContext): vscode.MarkdownString {
  const decoration = context.model.decoration(node.serialNumber);
  const found = context.model.foundInWorkspace(node.serialNumber);
  const tooltip = machineTooltip(
    context.model.summary(node.serialNumber),
    context,
    found?.locations.map((location) => `${vscode.workspace.asRelativePath(vscode.Uri.parse(location.file))}:${location.line + 1}`),
  );
  if (decoration !== undefined) {
    tooltip.appendMarkdown(decoration.icon === undefined ? '' : `$(${decoration.icon}) `);
    tooltip.appendText(decoration.tooltip);
  }
  return tooltip;
}

/** The machine-created event keeps its own icon; every other type through the shared eventStates mapping. */
function eventIcon(event: OnboardingEvent, rules: EventStateRules): vscode.ThemeIcon {
  if (event.assetId !== undefined) return new vscode.ThemeIcon('vm-active', new vscode.ThemeColor('testing.iconPassed'));
  const state = eventState(event, rules);
  if (state === 'in-progress') return new vscode.ThemeIcon('circle-small-filled');
  const look = STATE_LOOKS[state];
  return new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color));
}

export function eventTooltip(event: OnboardingEvent, context: RenderContext): vscode.MarkdownString {
  const md = untrustedMarkdown();
  md.appendMarkdown('**');
  md.appendText(lineText(event.type));
  md.appendMarkdown('**\n\n');
  md.appendText(tooltipText(event.message));
  md.appendMarkdown('\n\n---\n\n');
  const local = exactTime(event.time.epochMs, context);
  const utc = formatUtcIso(event.time.epochMs) ?? String(event.time.raw);
  md.appendText(
    event.time.unit === 'seconds'
      ? vscode.l10n.t('{0} ({1}); timestamp {2} read as seconds', local, utc, event.time.raw)
      : vscode.l10n.t('{0} ({1}); timestamp {2} read as milliseconds', local, utc, event.time.raw),
  );
  if (event.assetId !== undefined) {
    md.appendMarkdown('\n\n');
    md.appendText(vscode.l10n.t('Asset ID: {0}', event.assetId));
  }
  const machineLink = event.links['machine']?.[0]?.href;
  if (machineLink !== undefined) {
    md.appendMarkdown('\n\n');
    // As text, not a link: the href is server data (the details view opens it after checking it).
    md.appendText(vscode.l10n.t('Machine link: {0}', displayText(machineLink)));
  }
  return md;
}

function renderEvent(node: EventNode, context: RenderContext): vscode.TreeItem {
  const { event } = node;
  // Server text: a right-to-left override or a control character must not reorder or hide what the label says.
  const item = new vscode.TreeItem(lineText(event.type), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  const when = shortAge(event.time.epochMs, context);
  item.description = event.assetId === undefined ? when : `${when} · ${vscode.l10n.t('asset {0}', event.assetId)}`;
  item.iconPath = eventIcon(event, context.model.eventStates());
  item.contextValue = event.assetId === undefined ? 'event' : 'event.asset';
  item.command = { command: COMMANDS.showEventDetails, title: vscode.l10n.t('Show Event Details'), arguments: [event] };
  item.accessibilityInformation = { label: `${lineText(event.type)}, ${age(event.time.epochMs, context)}` };
  return item;
}

function renderLoadMore(node: LoadMoreNode, { model }: RenderContext): vscode.TreeItem {
  const next = Math.min(node.remaining, model.pageSize());
  const item = new vscode.TreeItem(vscode.l10n.t('Load More…'), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = vscode.l10n.t('{0} of {1} shown', node.shown, node.shown + node.remaining);
  item.iconPath = new vscode.ThemeIcon('more');
  item.contextValue = 'load-more';
  item.tooltip = vscode.l10n.t('Show up to {0} more events', next);
  item.command = { command: COMMANDS.loadMore, title: vscode.l10n.t('Load More Events'), arguments: [node] };
  return item;
}

/** The first sentence: what went wrong. The rest (what to do) is in the tooltip. */
export function firstSentence(message: string): string {
  // Chinese (and Japanese) full stops end a sentence with no space after them: the error row's text is now in the user's language.
  const end = message.search(/[.!?](\s|$)|[。！？]/);
  return end > 0 ? message.slice(0, end + 1) : message;
}

function renderError(node: ErrorNode): vscode.TreeItem {
  // A few words as the label; what the server said as the description and, in full, the tooltip.
  const item = new vscode.TreeItem(errorRowLabel(node.errorKind, t), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = firstSentence(node.message);
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
  // A network failure also offers Test Connection (package.json menus read the suffix).
  const network = node.errorKind === 'network' || node.errorKind === 'timeout';
  item.contextValue = network ? 'error.network' : 'error';
  return item;
}

function errorTooltip(node: ErrorNode): vscode.MarkdownString {
  const network = node.errorKind === 'network' || node.errorKind === 'timeout';
  const md = untrustedMarkdown();
  md.appendText(node.message);
  md.appendMarkdown('\n\n');
  md.appendText(
    network
      ? vscode.l10n.t('Retry, or run Test Connection to see step by step where the connection fails.')
      : vscode.l10n.t('Retry, or open the log to see the requests.'),
  );
  return md;
}

function placeholderLabel(node: PlaceholderNode): string {
  switch (node.reason) {
    case 'loading':
      return vscode.l10n.t('Loading…');
    case 'not-loaded':
      return vscode.l10n.t('Not loaded yet');
    case 'no-events':
      return vscode.l10n.t('No onboarding events');
    case 'none-match':
      return vscode.l10n.t('No events match the filter');
    case 'scanning':
      return vscode.l10n.t('Scanning workspace files…');
    case 'scan-none':
      return vscode.l10n.t('No serial numbers found in this workspace');
    case 'scan-failed':
      return vscode.l10n.t('The workspace scan failed');
    case 'scan-capped':
      return vscode.l10n.t('Only the first {0} files were scanned', node.detail ?? '?');
    case 'scan-too-large':
      return node.detail === '1'
        ? vscode.l10n.t('A file over 1 MB was not scanned')
        : vscode.l10n.t('{0} files over 1 MB were not scanned', node.detail ?? '?');
    case 'scan-cut':
      return node.detail === '1'
        ? vscode.l10n.t(
            'A file names more than {0} serial numbers: only its first {0} are listed',
            MAX_MATCHES_PER_FILE.toLocaleString(vscode.env.language),
          )
        : vscode.l10n.t(
            '{0} files name more than {1} serial numbers: only the first {1} of each are listed',
            node.detail ?? '?',
            MAX_MATCHES_PER_FILE.toLocaleString(vscode.env.language),
          );
  }
}

function renderPlaceholder(node: PlaceholderNode): vscode.TreeItem {
  const item = new vscode.TreeItem(placeholderLabel(node), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.contextValue = `placeholder.${node.reason}`;
  if (node.reason === 'loading' || node.reason === 'scanning') item.iconPath = new vscode.ThemeIcon('loading~spin');
  else if (node.reason === 'scan-too-large' || node.reason === 'scan-cut') item.iconPath = new vscode.ThemeIcon('info');
  else if (node.reason === 'scan-capped') {
    item.iconPath = new vscode.ThemeIcon('info');
    item.tooltip = vscode.l10n.t('Raise the onboardingEvents.workspaceScan.maxFiles setting to scan more files.');
  } else if (node.reason === 'scan-failed' && node.detail !== undefined) item.tooltip = node.detail;
  return item;
}
