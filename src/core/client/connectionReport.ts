// The Test Connection report: Markdown for VS Code's document, plain lines for a terminal. Every
// line is our words or a value made safe by literal(); the frame is worded in the runner's `t`,
// so the user reads one language.

import type { Localize } from '../common/localize';
import { toSingleLine, truncate } from '../common/markdownText';
import { formatDuration } from '../common/time';

/** `unclear`: the stage got an answer that cannot tell whether it worked (the verdict says so). */
export type StageStatus = 'ok' | 'failed' | 'skipped' | 'unclear';

export interface CheckStage {
  /** What was checked, e.g. "TLS handshake with api.plant.test:443". */
  readonly title: string;
  readonly status: StageStatus;
  /** One line: the result. */
  readonly summary: string;
  /** Further facts, one per line (certificate, addresses, where trust came from). */
  readonly details: readonly string[];
  /** Absent for stages that take no time (the proxy decision) and skipped ones. */
  readonly durationMs?: number;
}

export interface Verdict {
  readonly ok: boolean;
  /** Not ok, but not known to fail either: the answers cannot tell (the report says so, never "works"). */
  readonly unclear?: boolean;
  /** One line: what works or what went wrong first. */
  readonly headline: string;
  /** What to do, in full (never cut: a message that says what to do must show the doing part); may be empty. */
  readonly advice: string;
}

export interface ConnectionReport {
  readonly environment: string;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  /** ISO time the check started. */
  readonly startedAt: string;
  /** Label and value pairs about the machine (versions, platform): no user data; labels worded by the runner's `t`. */
  readonly facts: readonly (readonly [string, string])[];
  readonly stages: readonly CheckStage[];
  readonly verdict: Verdict;
}

/** Longest value quoted from a server, a setting or the environment. */
const MAX_LITERAL = 200;

/**
 * A value from outside (a certificate's name, a host, a path) as a Markdown
 * code span: one line, bounded, with no backtick to close the span early.
 * Readable as it is when the report is pasted as plain text.
 */
export function literal(value: string): string {
  const line = truncate(toSingleLine(value, MAX_LITERAL).replace(/`/g, "'"), MAX_LITERAL);
  return `\`${line === '' ? ' ' : line}\``;
}

/**
 * A message of ours split where it turns from what went wrong to what to do:
 * after its first sentence, which ends in ". " in English and German and in
 * "。" (no space) in Chinese. Not after a one-letter word: German writes
 * "z. B." and "d. h." (with a no-break space inside), which end no sentence.
 */
export function verdictOf(message: string): Verdict {
  const end = message.search(/(?<!(?:^|[\s(])\p{L})[.!?](?=\s|$)|[。！？]/u);
  const headline = end > 0 ? message.slice(0, end + 1) : message;
  return { ok: false, headline, advice: message.slice(headline.length).trim() };
}

function statusWord(status: StageStatus, t: Localize): string {
  switch (status) {
    case 'ok':
      return t('OK');
    case 'failed':
      return t('FAILED');
    case 'skipped':
      return t('skipped');
    case 'unclear':
      return t('UNCLEAR');
  }
}

/** How the report's headings, emphasis and quoted values are written: Markdown for a document, plain lines for a terminal. */
export interface ReportStyle {
  heading(level: 1 | 2, text: string): string;
  strong(text: string): string;
  /** A finished line, whose values `literal()` put in code spans. */
  line(text: string): string;
}

const MARKDOWN: ReportStyle = {
  heading: (level, text) => `${'#'.repeat(level)} ${text}`,
  strong: (text) => `**${text}**`,
  line: (text) => text,
};

/**
 * The report as plain text for a terminal (oe): headings and emphasis by `strong`, values bare.
 * literal() leaves no backtick inside a value, so every backtick left is a span's edge.
 */
export function plainReportStyle(strong: (text: string) => string = (text) => text): ReportStyle {
  return { heading: (_level, text) => strong(text), strong, line: (text) => text.replace(/`/g, '') };
}

/**
 * The report, its frame in `t`'s language (the stages and verdict come worded by the runner's `t`): Markdown by
 * default, or in another style (plainReportStyle) with the very same words and order.
 */
export function renderConnectionReport(report: ConnectionReport, t: Localize, style: ReportStyle = MARKDOWN): string {
  const lines: string[] = [
    style.heading(1, t('Onboarding Events: connection test')),
    '',
    `- ${t('Environment: {0}', literal(report.environment))}`,
    `- ${t('API: {0}', literal(report.apiBaseUrl))}`,
    `- ${t('Authorization server: {0}', literal(report.authUrl))}`,
    `- ${t('Tested: {0}', report.startedAt)}`,
    // '{0}: {1}' is a message too: Chinese writes the colon full-width.
    ...report.facts.map(([label, value]) => `- ${t('{0}: {1}', label, literal(value))}`),
    '',
    style.heading(
      2,
      report.verdict.ok
        ? t('Verdict: the connection works')
        : report.verdict.unclear === true
          ? t('Verdict: cannot tell whether the connection works')
          : t('Verdict: the connection fails'),
    ),
    '',
    style.strong(report.verdict.headline),
    '',
    ...(report.verdict.advice === '' ? [] : [report.verdict.advice, '']),
    style.heading(2, t('Steps')),
    '',
  ];
  report.stages.forEach((stage, index) => {
    const time = stage.durationMs === undefined ? '' : ` (${formatDuration(stage.durationMs, t)})`;
    lines.push(`${index + 1}. ${style.strong(statusWord(stage.status, t))} ${t('{0}: {1}', `${stage.title}${time}`, stage.summary)}`);
    for (const detail of stage.details) lines.push(`    - ${detail}`);
  });
  lines.push(
    '',
    '---',
    t(
      'Secrets are not part of this report: no password, client secret, access token or proxy password. Proxy user names and passwords are replaced by `***`.',
    ),
    '',
  );
  return lines.map((line) => style.line(line)).join('\n');
}
