// Turns a machine's events into a JSON or CSV file. Pure TypeScript,
// unit-tested. Every field but the time columns is server text, so CSV cells
// are quoted per RFC 4180 and guarded against formula injection: a
// spreadsheet would run a cell starting with = + - @ (or a tab or carriage
// return before one of those) as a formula, e.g. =HYPERLINK(...) or a DDE
// call. Such cells get a leading apostrophe (OWASP "CSV Injection").
import type { OnboardingEvent } from '../../client/model';
import { serverTextData } from '../../common/serverText';

export type ExportFormat = 'json' | 'csv';

/**
 * English on purpose, whatever VS Code's language: the CSV columns
 * and the JSON keys are a data format, the API's own field names, which
 * scripts and spreadsheets match on. The cells are the server's text as sent.
 */
export const CSV_COLUMNS = ['serialNumber', 'type', 'message', 'timestamp', 'timeUtc', 'assetId', 'machineLink'] as const;

// OWASP's CSV-injection characters, also after leading white space (some
// spreadsheets skip it) and in their fullwidth forms (some normalise them).
const FORMULA_START = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/** One CSV cell: formula-guarded, then quoted when it holds a quote, separator or line break. */
export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

function isoOrEmpty(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/**
 * RFC 4180: CRLF line ends, a header row. Starts with a UTF-8 byte-order mark
 * so spreadsheet programs read non-ASCII messages correctly.
 */
export function eventsToCsv(serialNumber: string, events: readonly OnboardingEvent[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const event of events) {
    rows.push(
      [
        csvCell(serialNumber),
        csvCell(serverTextData(event.type)),
        csvCell(serverTextData(event.message)),
        // Our own number, written as a number: no guard (a negative timestamp must stay a number).
        String(event.time.raw),
        isoOrEmpty(event.time.epochMs),
        csvCell(event.assetId ?? ''),
        csvCell(event.links['machine']?.[0]?.href ?? ''),
      ].join(','),
    );
  }
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

export interface JsonExportMeta {
  readonly exportedAt: number;
  /** When the events were received from the API. */
  readonly fetchedAt: number | undefined;
  /** A description of the filter that was applied, when one was. */
  readonly filter?: string;
}

/** The events exactly as the server sent them (`raw`), with the context needed to read them later. */
export function eventsToJson(serialNumber: string, events: readonly OnboardingEvent[], meta: JsonExportMeta): string {
  const document = {
    serialNumber,
    exportedAt: new Date(meta.exportedAt).toISOString(),
    // Left out when undefined: JSON.stringify drops such a property.
    fetchedAt: meta.fetchedAt === undefined ? undefined : new Date(meta.fetchedAt).toISOString(),
    filter: meta.filter,
    count: events.length,
    events: events.map((event) => event.raw),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The file format implied by a file name; JSON unless it ends in .csv. */
export function formatOf(fileName: string): ExportFormat {
  return /\.csv$/i.test(fileName) ? 'csv' : 'json';
}

/** A file name for the save dialog: the serial number with anything a file system dislikes replaced. */
export function defaultExportName(serialNumber: string, format: ExportFormat): string {
  const safe = serialNumber.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'machine';
  return `${safe}-onboarding-events.${format}`;
}
