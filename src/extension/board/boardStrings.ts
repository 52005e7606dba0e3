// Every word of the board, localised by the host because the page cannot
// call vscode.l10n: the page's strings, the state words (the one stateWord of
// eventState.ts), and the words of the exports. `t` is vscode.l10n.t in the
// panel; vscode-free so the page's tests and the bench use the English words.
import type { Localize } from '../../core/common/localize';
import { stateWord } from '../../core/domain/events/eventState';
import { BOARD_STATES, type BoardState } from '../../core/domain/board/boardRows';
import type { ExportWords } from '../../core/domain/board/boardExport';
import { MAX_AUTOMATIC_PER_VIEW } from '../../core/eventsCache/visibleLoads';
import type { PageStrings } from './protocol';

export function boardStateWords(t: Localize): Record<BoardState, string> {
  return Object.fromEntries(BOARD_STATES.map((state) => [state, state === 'not-loaded' ? t('not loaded') : stateWord(state, t)])) as Record<
    BoardState,
    string
  >;
}

export function exportWords(t: Localize): ExportWords {
  return {
    states: boardStateWords(t),
    headings: {
      serialNumber: t('Serial number'),
      state: t('State'),
      newest: t('Newest event'),
      newestTime: t('Newest event time (UTC)'),
      duration: t('Duration'),
      events: t('Events'),
      error: t('Error'),
    },
    t,
  };
}

// `{0}` placeholders are filled in by the page (plainLocalize), so translations can move them.
export function boardPageStrings(t: Localize): PageStrings {
  const words = boardStateWords(t);
  return {
    loading: t('Loading the board…'),
    summaryNone: t('No machines'),
    summaryOne: t('1 machine: {0}'),
    summaryMany: t('{0} machines: {1}'),
    summaryCount: t('{0} {1}'),
    summarySeparator: t(', '),
    shownOf: t('Showing {0} of {1}'),
    stateOnboarded: words.onboarded,
    stateFailed: words.failed,
    stateInProgress: words['in-progress'],
    stateNoEvents: words['no-events'],
    stateUnknown: words.unknown,
    stateUnavailable: words.unavailable,
    stateNotLoaded: words['not-loaded'],
    filterStates: t('Filter by state'),
    filterText: t('Filter by text'),
    filterPlaceholder: t('Filter: serial number, event, error'),
    columnSerialNumber: t('Serial number'),
    columnState: t('State'),
    columnProgress: t('Progress'),
    columnToGo: t('Time to go'),
    columnNewest: t('Newest event'),
    columnAge: t('Age'),
    columnDuration: t('Duration'),
    columnEvents: t('Events'),
    columnError: t('Error'),
    columnActions: t('Actions'),
    sortBy: t('Sort by {0}'),
    openDetails: t('Open the details of the newest event'),
    openDetailsAria: t('{0}: open the details of its newest event'),
    reveal: t('Reveal in Machines View'),
    revealAria: t('Reveal {0} in the Machines view'),
    signedOut: t('Signed out: sign in to load these machines.'),
    signIn: t('Sign In'),
    held: t('{0} machines are not loaded yet: the board loads at most {1} without asking.', '{0}', MAX_AUTOMATIC_PER_VIEW),
    heldOne: t('1 machine is not loaded yet: the board loads at most {0} without asking.', MAX_AUTOMATIC_PER_VIEW),
    loadHeld: t('Load Them'),
    // {0} and {1} are filled in by the page, in the board's locale.
    beyond: t(
      'Machines in this set not on the board: {0}. A board shows at most {1} machines; open a smaller set (one line’s file, or a selection) to see the rest.',
    ),
    share: t('Share'),
    exportCsv: t('Export CSV…'),
    exportSvg: t('Export Timeline as SVG…'),
    exportPng: t('Export Timeline as PNG…'),
    copyMarkdown: t('Copy as Markdown Table'),
    timeline: t('Timeline'),
    timelineAria: t('Timeline of the machines shown in the table'),
    timelineHelp: t(
      'Arrow keys move between events, Enter opens one; + and − zoom, 0 fits, Shift+Left/Right pans. Mouse: Ctrl+wheel zooms, drag or Shift+wheel pans.',
    ),
    alignStarts: t('Align Starts: Each Lane From Its First Event'),
    zoomIn: t('Zoom In'),
    zoomOut: t('Zoom Out'),
    zoomFit: t('Fit All Events'),
    panLeft: t('Earlier'),
    panRight: t('Later'),
    table: t('Machines'),
    tableCaption: t('Machines of the board, one row each; the same order and filter as the timeline.'),
    noEvents: t('no events'),
    completed: t('From the first event to completion'),
    notCompleted: t('From the first event to the newest (not completed)'),
    stale: t('not up to date'),
    // formatDuration's templates, so the page words durations as every other view does.
    durationMs: t('{0} ms'),
    durationS: t('{0} s'),
    durationMin: t('{0} min'),
    durationH: t('{0} h'),
    durationHMin: t('{0} h {1} min'),
    durationOneDay: t('1 day'),
    durationDays: t('{0} days'),
    durationOneDayH: t('1 day {0} h'),
    durationDaysH: t('{0} days {1} h'),
    noMatch: t('No machine matches the filter.'),
    failingStep: t('failing step'),
    filterStalled: t('Stalled'),
    stalled: t('stalled'),
    filterAbandoned: t('Abandoned'),
    abandoned: t('abandoned'),
    progressShort: t('{0}/{1} · {2}'),
    usualSteps: t('Faint bands behind each lane: the usual steps of this line, laid end to end by their median times ({0}).'),
  };
}
