// The board's one panel: the set it follows, its loads within VisibleLoads' bounds, and what the page
// may ask, each request checked against the rows the host showed, never trusted as sent.
import * as vscode from 'vscode';
import { isApiError } from '../../core/client/errors';
import { Debouncer } from '../../core/common/delays';
import { definedOnly } from '../../core/common/definedOnly';
import type { Event } from '../../core/common/emitter';
import { errorMessage } from '../../core/common/errors';
import { extensionErrorText } from '../workbench/remedies';
import { Disposable, toDisposable } from '../../core/common/lifecycle';
import { toSingleLine } from '../../core/common/markdownText';
import { inertNotificationText } from '../../core/common/notificationText';
import { failureKind, NotSignedInError, type EventsCache } from '../../core/eventsCache/eventsCache';
import { VisibleLoads } from '../../core/eventsCache/visibleLoads';
import { boardRow, MAX_ERROR_LENGTH, rowProgress, usualSteps, type BoardRow } from '../../core/domain/board/boardRows';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import { progressWords, restsOnWords } from '../../core/domain/progress/machineProgress';
import { pageText } from '../../core/common/serverText';
import { boardToCsv, boardToMarkdown, MAX_SVG_LANES, timelineSvg } from '../../core/domain/board/boardExport';
import { axisLabel } from '../../core/domain/board/boardTable';
import { newestOf } from '../../core/domain/events/eventState';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi, MachinesApi } from '../workbench/contracts/features';
import { COMMANDS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SerialSettings } from '../workbench/serialSettings';
import type { SettingsReader } from '../workbench/settings';
import { WebviewHost } from '../workbench/webviewHost';
import { writeSavedFile } from '../workbench/workspaceFiles';
import { resolveSet, SetFollower } from './boardSets';
import { boardPageStrings, boardStateWords, exportWords } from './boardStrings';
import { isPageMessage, type BoardSet, type BoardView, type HostMessage, type PageMessage } from './protocol';

export interface BoardDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly serialSettings: SerialSettings;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  readonly log: Log;
  /** The line's usual steps: each row's progress and the faint bands behind the lanes. */
  readonly lineHistory: CachedLineHistory;
}

export interface BoardContext extends BoardDeps {
  readonly extensionUri: vscode.Uri;
}

/** Updates from the cache that land together (a bulk load's answers) post once. */
const POST_BATCH_MS = 150;
/** The largest PNG saved: the page's limit, decoded. */
const MAX_PNG_BYTES = 18 * 1024 * 1024;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export class BoardPanel extends Disposable {
  private serialNumbers: readonly string[] = [];
  /** Machines the set names past MAX_ROWS. */
  private beyond = 0;
  private label = '';
  private follower: SetFollower | undefined;
  private readonly loads: VisibleLoads;
  private readonly posting = this.register(
    new Debouncer(
      () => {
        this.host.update();
      },
      POST_BATCH_MS,
      'batch',
    ),
  );
  private readonly host: WebviewHost<HostMessage, PageMessage>;
  readonly onDidDispose: Event<void>;
  /** Bumped per set change: an older resolution finishing late is dropped. */
  private generation = 0;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private currentSet: BoardSet,
    private readonly context: BoardContext,
  ) {
    super();
    const { events, settings, session } = context;
    this.host = this.register(
      new WebviewHost(panel, {
        extensionUri: context.extensionUri,
        log: context.log,
        page: 'board',
        logName: 'Onboarding board',
        loading: vscode.l10n.t('Loading the board…'),
        isPageMessage,
        content: () => this.showMessage(),
        request: (message) => this.handle(message),
      }),
    );
    this.onDidDispose = this.host.onDidDispose;
    // Closed by the user, the host goes first; the board follows.
    this.register(
      this.host.onDidDispose(() => {
        this.dispose();
      }),
    );
    this.register(toDisposable(() => this.follower?.dispose()));
    this.loads = this.register(
      new VisibleLoads({
        load: (serialNumber, signal) => this.load(serialNumber, signal),
        cache: events,
        periodMs: () => settings.value.cacheSeconds * 1000,
      }),
    );
    const inSet = (serialNumber: string): boolean => this.serialNumbers.includes(serialNumber);
    this.register(
      events.onDidUpdate((serialNumber) => {
        if (inSet(serialNumber)) this.posting.trigger();
      }),
    );
    this.register(
      this.loads.onDidSettle(() => {
        this.posting.trigger();
      }),
    );
    this.register(
      this.loads.onDidChangeHeld(() => {
        this.posting.trigger();
      }),
    );
    // The figures change as results arrive anywhere in the window (the history fires once per turn): one post per batch.
    this.register(
      context.lineHistory.onDidChange(() => {
        this.posting.trigger();
      }),
    );
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('eventStates')) this.posting.trigger();
      }),
    );
    this.register(
      session.onDidChangeState(() => {
        this.loads.clear();
        this.showLoads();
        this.posting.trigger();
      }),
    );
    this.host.load();
  }

  get set(): BoardSet {
    return this.currentSet;
  }

  /** Shows another set (or, first, the one it was made for) and follows it from now on; resolves once its machines are known. */
  async setSet(set: BoardSet): Promise<void> {
    this.currentSet = set;
    this.follower?.dispose();
    this.follower = new SetFollower(set, this.context, () => void this.resolve());
    await this.resolve();
  }

  private async resolve(): Promise<void> {
    const generation = ++this.generation;
    const resolved = await resolveSet(this.currentSet, this.context);
    if (generation !== this.generation || this.isDisposed) return;
    this.serialNumbers = resolved.serialNumbers;
    this.beyond = resolved.beyond;
    this.label = resolved.label;
    this.panel.title = vscode.l10n.t('Board: {0}', resolved.label);
    this.showLoads();
    this.posting.trigger();
  }

  private showLoads(): void {
    if (this.context.session.state.kind === 'signed-in') this.loads.show(this.serialNumbers);
    else this.loads.clear();
  }

  private async load(serialNumber: string, signal: AbortSignal): Promise<unknown> {
    try {
      // Bulk: a board of many machines queues behind every hover and look-up.
      return await this.context.events.get(serialNumber, { signal, priority: 'bulk' });
    } catch (error) {
      if (!(error instanceof NotSignedInError) && !(isApiError(error) && (error.kind === 'cancelled' || error.kind === 'not-found')))
        this.context.log.warn(`Onboarding board, ${serialNumber}: ${errorMessage(error)}`);
      throw error;
    }
  }

  /** Memory only: building rows sends nothing. */
  rows(): BoardRow[] {
    const { events, settings, session } = this.context;
    const signedIn = session.state.kind === 'signed-in';
    const rules = settings.value.eventStates;
    const { lineHistory } = this.context;
    return this.serialNumbers.map((serialNumber) => {
      if (!signedIn) return boardRow(serialNumber, {}, rules);
      const entry = events.peek(serialNumber);
      const failed = events.failure(serialNumber);
      const answer = entry === undefined ? undefined : lineHistory.progressFor(entry.result);
      return boardRow(
        serialNumber,
        {
          result: entry?.result,
          stale: entry?.stale,
          errorKind: failed === undefined ? undefined : failureKind(failed),
          errorMessage: failed === undefined ? undefined : toSingleLine(extensionErrorText(failed.error, vscode.l10n.t), MAX_ERROR_LENGTH),
          progress: answer === undefined ? undefined : rowProgress(answer, progressWords(answer, vscode.l10n.t, pageText)),
        },
        rules,
      );
    });
  }

  private showMessage(): HostMessage {
    return {
      type: 'show',
      board: {
        title: this.panel.title,
        set: this.currentSet,
        session: this.context.session.state.kind === 'signed-in' ? 'signed-in' : 'signed-out',
        rows: this.rows(),
        held: this.loads.heldCount,
        beyond: this.beyond,
        locale: vscode.env.language,
        nowMs: Date.now(),
        usual: this.usual(),
      },
      strings: boardPageStrings(vscode.l10n.t),
    };
  }

  /** The line's usual steps for the bands behind the lanes (the page's and the SVG's), with what they rest on; null while there are none. */
  private usual(): BoardView['usual'] {
    if (this.context.session.state.kind !== 'signed-in') return null;
    const learned = this.context.lineHistory.steps();
    const steps = usualSteps(learned);
    if (learned.kind !== 'steps' || steps.length === 0) return null;
    return { steps, ...restsOnWords(learned, vscode.l10n.t) };
  }

  /** The rows the page named, in its order, each one the host's own (a serial number not on the board is dropped). */
  private rowsFor(serialNumbers: readonly string[]): BoardRow[] {
    const byKey = new Map(this.rows().map((row) => [row.serialNumber, row]));
    return serialNumbers.flatMap((serialNumber) => byKey.get(serialNumber) ?? []);
  }

  private async handle(message: Exclude<PageMessage, { type: 'ready' }>): Promise<void> {
    const { machines, details, events } = this.context;
    switch (message.type) {
      case 'open-machine': {
        if (!this.serialNumbers.includes(message.serialNumber)) return;
        const newest = newestOf(events.peek(message.serialNumber)?.result.events ?? []);
        if (newest) await details.show(newest);
        else await machines.reveal(message.serialNumber);
        return;
      }
      case 'open-event': {
        if (!this.serialNumbers.includes(message.serialNumber)) return;
        const event = events.peek(message.serialNumber)?.result.events.find((e) => e.key === message.key);
        if (event) await details.show(event);
        return;
      }
      case 'reveal':
        if (this.serialNumbers.includes(message.serialNumber)) await machines.reveal(message.serialNumber);
        return;
      case 'sign-in':
        await vscode.commands.executeCommand(COMMANDS.signIn);
        return;
      case 'load-held':
        if (this.context.session.state.kind === 'signed-in') this.loads.loadHeld();
        return;
      case 'export-table': {
        const rows = this.rowsFor(message.serialNumbers);
        if (message.format === 'markdown') {
          const text = boardToMarkdown(rows, exportWords(vscode.l10n.t));
          await vscode.env.clipboard.writeText(text);
          this.confirm(vscode.l10n.t('Copied {0} rows as a Markdown table.', rows.length));
          return;
        }
        await this.save('csv', Buffer.from(boardToCsv(rows, exportWords(vscode.l10n.t)), 'utf8'));
        return;
      }
      case 'export-svg': {
        const rows = this.rowsFor(message.serialNumbers);
        const locale = vscode.env.language;
        const svg = timelineSvg(rows, {
          from: message.from,
          to: message.to,
          look: message.look,
          states: boardStateWords(vscode.l10n.t),
          title: this.panel.title,
          aligned: message.aligned,
          usual: this.usual(),
          nowMs: Date.now(),
          formatTick: (at, step) => axisLabel(at, step, { aligned: message.aligned, locale, t: vscode.l10n.t }),
        });
        await this.save('svg', Buffer.from(svg, 'utf8'), this.lanesCut(Math.min(rows.length, MAX_SVG_LANES), rows.length, 'svg'));
        return;
      }
      case 'export-png': {
        const bytes = Buffer.from(message.dataUrl.slice('data:image/png;base64,'.length), 'base64');
        if (bytes.length > MAX_PNG_BYTES || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
          this.context.log.warn('Onboarding board: the page sent a PNG that is not one; nothing was saved.');
          return;
        }
        await this.save('png', bytes, this.lanesCut(message.lanes, message.of, 'png'));
        return;
      }
    }
  }

  /** What a picture left off, said beside "Saved": a picture holds a bounded number of lanes, never silently fewer. */
  private lanesCut(lanes: number, of: number, format: 'svg' | 'png'): string | undefined {
    if (lanes >= of) return undefined;
    const locale = vscode.env.language;
    const [shown, all] = [lanes.toLocaleString(locale), of.toLocaleString(locale)];
    return format === 'svg'
      ? vscode.l10n.t('It holds the first {0} of {1} lanes: an SVG holds at most {0}. Filter the board to export the others.', shown, all)
      : vscode.l10n.t(
          'It holds the first {0} of {1} lanes: a PNG holds at most {0}. Export the timeline as SVG, or filter the board, for the others.',
          shown,
          all,
        );
  }

  private async save(format: 'csv' | 'svg' | 'png', bytes: Uint8Array, cut?: string): Promise<void> {
    const filters: Record<typeof format, Record<string, string[]>> = {
      csv: { [vscode.l10n.t('CSV')]: ['csv'] },
      svg: { [vscode.l10n.t('SVG image')]: ['svg'] },
      png: { [vscode.l10n.t('PNG image')]: ['png'] },
    };
    const name = `onboarding-board-${
      this.label
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .toLowerCase() || 'machines'
    }.${format}`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      filters: filters[format],
      saveLabel: vscode.l10n.t('Export'),
      ...definedOnly({ defaultUri: folder && vscode.Uri.joinPath(folder, name) }),
    });
    if (!target) return;
    try {
      await writeSavedFile(target, bytes);
    } catch (error) {
      void vscode.window.showErrorMessage(inertNotificationText(extensionErrorText(error, vscode.l10n.t)));
      return;
    }
    const saved = vscode.l10n.t('Saved {0}.', target.path.split('/').pop() ?? '');
    this.confirm(cut === undefined ? saved : `${saved} ${cut}`);
  }

  /** In the page's live region for a screen reader, and in the status bar for everyone else. */
  private confirm(message: string): void {
    // Only to a page that is up: one still loading gets the board, not a status about the one before.
    if (this.host.isReady) this.host.post({ type: 'status', message });
    vscode.window.setStatusBarMessage(inertNotificationText(message), 3000);
  }
}
