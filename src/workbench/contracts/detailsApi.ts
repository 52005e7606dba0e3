import type { OnboardingEvent } from '../../core/model';
import type { HostMessage, PageMessage } from '../../details/protocol';

/** What the details feature offers the tree, the hovers and the look-up. */
export interface DetailsApi {
  /** Opens (or reveals, or retargets the preview panel to) the details of one event. */
  show(event: OnboardingEvent): Promise<void>;
  /** Present only when the extension runs its tests (ExtensionMode.Test). */
  readonly testHook: DetailsTestHook | undefined;
}

/**
 * The thin wrapper around `vscode.env.openExternal` and its confirmation, so
 * tests can stand in for the browser and the modal dialog.
 */
export interface LinkOpener {
  /** Shows the full URL and asks; true to go ahead. */
  confirm(url: string): Promise<boolean>;
  open(url: string): Promise<boolean>;
}

export type RenderedReport = Extract<PageMessage, { type: 'rendered' }>;

/** What integration tests observe and steer. Holds no credentials, tokens or client. */
export interface DetailsTestHook {
  /** The HTML most recently given to a details webview. */
  readonly lastHtml: string | undefined;
  /** The message most recently posted to a details page. */
  readonly lastPosted: HostMessage | undefined;
  /** The page's most recent read-back of what it rendered. */
  readonly lastRendered: RenderedReport | undefined;
  /** Resolves with the next (or current, when `predicate` already holds) rendered report. */
  waitForRendered(predicate: (report: RenderedReport) => boolean, timeoutMs?: number): Promise<RenderedReport>;
  /** Titles of the open details panels. */
  panelTitles(): string[];
  /** Handles `message` as if the most recently shown panel's page had sent it; resolves when handled. */
  simulatePageMessage(message: unknown): Promise<void>;
  /** Replaces the opener until disposed. */
  useLinkOpener(opener: LinkOpener): { dispose(): void };
  /** Times any opener's `open` was called (unsafe links must never get there). */
  readonly openCalls: number;
  /** Times a link was refused for not being http(s). */
  readonly refusedLinks: number;
  /** Notification messages and progress titles the panels showed, oldest first. */
  notifications(): string[];
}
