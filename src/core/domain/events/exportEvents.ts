// A machine's events as JSON or CSV. Cells are server text: quoted per RFC 4180 and, when they start
// like a formula, given a leading apostrophe (OWASP "CSV Injection").
import type { OnboardingEvent } from '../../client/model';
import { serverTextData } from '../../common/serverText';

export type ExportFormat = 'json' | 'csv';

/** English on purpose: the columns are the API's field names, a data format scripts match on. */
export const CSV_COLUMNS = ['serialNumber', 'type', 'message', 'timestamp', 'timeUtc', 'assetId', 'machineLink'] as const;

// OWASP's CSV-injection characters, also after leading white space (some
// spreadsheets skip it) and in their fullwidth forms (some normalise them).
const FORMULA_START = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

function isoOrEmpty(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** With a byte-order mark, so spreadsheets read non-ASCII messages correctly. */
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
  readonly fetchedAt: number | undefined;
  readonly filter?: string;
}

/** The events exactly as the server sent them (`raw`), with the context needed to read them later. */
export function eventsToJson(serialNumber: string, events: readonly OnboardingEvent[], meta: JsonExportMeta): string {
  return `${JSON.stringify(eventsDocument(serialNumber, events, meta), null, 2)}\n`;
}

/** The object eventsToJson writes (`oe events --json` adds its schemaVersion). */
export function eventsDocument(serialNumber: string, events: readonly OnboardingEvent[], meta: JsonExportMeta): object {
  return {
    serialNumber,
    exportedAt: new Date(meta.exportedAt).toISOString(),
    // Left out when undefined: JSON.stringify drops such a property.
    fetchedAt: meta.fetchedAt === undefined ? undefined : new Date(meta.fetchedAt).toISOString(),
    filter: meta.filter,
    count: events.length,
    events: events.map((event) => event.raw),
  };
}

export function formatOf(fileName: string): ExportFormat {
  return /\.csv$/i.test(fileName) ? 'csv' : 'json';
}

/** A file name for the save dialog: the serial number with anything a file system dislikes replaced. */
export function defaultExportName(serialNumber: string, format: ExportFormat): string {
  const safe = serialNumber.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'machine';
  return `${safe}-onboarding-events.${format}`;
}
