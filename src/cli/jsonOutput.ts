// JSON on stdout, one way for every command: --json[=field,…] chooses the top-level fields (as `gh --json`),
// --jq EXPR filters the result through jq (as `gh --jq`). Real jq (jq-wasm, jq compiled to WebAssembly), not
// JSONPath: the shell and gh users who script oe already write jq. Every object carries its schemaVersion
// (docs/schemas/<command>.schema.json); the data is never translated.
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Localize } from '../core/common/localize';
import { UsageError, type JsonChoice, type JsonSpec } from './cliCommand';
import { jsonEscaped, outputJson } from './cliIo';

/** The most JSON text jq is handed, and the most it may write back, per document or line. */
export const MAX_JQ_BYTES = 64 * 1024 * 1024;
/** jq runs in a worker that is ended past this: an expression that never ends holds no run forever. */
export const JQ_TIMEOUT_MS = 30_000;

const FIELD = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Takes --json[=FIELDS] and --jq EXPR out of a command's arguments (before parseArgs sees them). `--json FIELDS`
 * detached takes the next word only when it names fields (a known one, or a comma list), so `oe check --json .`
 * still checks `.`. A command without a JsonSpec keeps its arguments: --json is then an unknown option.
 */
export function takeJsonOptions(
  args: readonly string[],
  spec: JsonSpec | undefined,
  t: Localize,
): { readonly rest: string[]; readonly json: JsonChoice | undefined } {
  if (spec === undefined) return { rest: [...args], json: undefined };
  const rest: string[] = [];
  let fieldsText: string | undefined;
  let wanted = false;
  let jq: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') {
      rest.push(...args.slice(index));
      break;
    }
    if (arg === '--json' || arg.startsWith('--json=')) {
      wanted = true;
      const next = args[index + 1];
      if (arg !== '--json') fieldsText = arg.slice('--json='.length);
      else if (next !== undefined && namesFields(next, spec)) {
        fieldsText = next;
        index++;
      }
    } else if (arg === '--jq' || arg.startsWith('--jq=')) {
      jq = arg === '--jq' ? args[++index] : arg.slice('--jq='.length);
      if (jq === undefined || jq.trim() === '') throw new UsageError(t('--jq needs a jq expression, such as --jq .serialNumber.'));
    } else rest.push(arg);
  }
  // --jq alone means the whole JSON, filtered.
  if (!wanted && jq === undefined) return { rest, json: undefined };
  return { rest, json: { schemaVersion: spec.schemaVersion, fields: fieldsOf(fieldsText, spec, t), jq } };
}

function namesFields(word: string, spec: JsonSpec): boolean {
  if (spec.fields.includes(word)) return true;
  return word.includes(',') && word.split(',').every((part) => FIELD.test(part.trim()) || part.trim() === '');
}

function fieldsOf(text: string | undefined, spec: JsonSpec, t: Localize): readonly string[] | undefined {
  if (text === undefined) return undefined;
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const available = spec.fields.join(', ');
  if (names.length === 0) throw new UsageError(t('--json names no field. The fields are: {0}.', available));
  const unknown = names.find((name) => name !== 'schemaVersion' && !spec.fields.includes(name));
  // The name is echoed only when it is a plain word: it may hold anything the shell passed.
  if (unknown !== undefined)
    throw new UsageError(t('Unknown JSON field {0}. The fields are: {1}.', FIELD.test(unknown) ? unknown : '?', available));
  return names;
}

/** schemaVersion first, then the chosen fields (all of them when none were chosen), in the object's order. */
function shaped(value: object, choice: JsonChoice): object {
  const entries = Object.entries(value).filter(([name]) => choice.fields === undefined || choice.fields.includes(name));
  return Object.fromEntries([['schemaVersion', choice.schemaVersion], ...entries]);
}

/**
 * A writer of JSON to stdout: `document` for a whole answer (an object, or a list whose every object is shaped),
 * `line` for NDJSON, written as it happens. With --jq each is filtered in order; `end` waits for the last and fails
 * with a UsageError when jq did.
 */
export interface JsonWriter {
  document(value: object | readonly object[]): void;
  line(record: object): void;
  end(): Promise<void>;
}

export function jsonWriter(
  io: { stdout(text: string): void; stderr(text: string): void; readonly t: Localize },
  choice: JsonChoice,
  signal: AbortSignal,
): JsonWriter {
  const { t } = io;
  const shape = (value: object | readonly object[]): unknown =>
    Array.isArray(value) ? value.map((item: object) => shaped(item, choice)) : shaped(value, choice);
  if (choice.jq === undefined) {
    return {
      document: (value) => {
        io.stdout(`${outputJson(shape(value), 2)}\n`);
      },
      line: (record) => {
        io.stdout(`${outputJson(shape(record))}\n`);
      },
      end: () => Promise.resolve(),
    };
  }
  const jq = new JqWorker(choice.jq, t, signal);
  let queue: Promise<void> = Promise.resolve();
  let failure: UsageError | undefined;
  let failedLines = 0;
  const filter = (value: unknown, isLine: boolean): void => {
    queue = queue.then(async () => {
      if (failure !== undefined && !isLine) return;
      try {
        io.stdout(await jq.run(JSON.stringify(value)));
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        failure ??= error;
        failedLines++;
        // As jq on a stream: an error on one line is said at once, and the next lines still go through.
        if (isLine) io.stderr(`oe: ${error.message}\n`);
      }
    });
  };
  return {
    document: (value) => {
      filter(shape(value), false);
    },
    line: (record) => {
      filter(shape(record), true);
    },
    async end() {
      try {
        await queue;
      } finally {
        jq.close();
      }
      if (failure === undefined) return;
      throw failedLines > 1 ? new UsageError(t('--jq failed on {0} of the JSON lines.', failedLines)) : failure;
    },
  };
}

interface JqAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * jq in a worker thread (jqWorker.ts beside this file, dist/jqWorker.js beside oe.js), started on the first --jq:
 * jq runs synchronously in WebAssembly, so an expression that never ends would hold the main thread, Ctrl-C and the
 * time bound with it; the worker is ended instead. A run without --jq never loads it.
 */
class JqWorker {
  private worker: Worker | undefined;
  private pending: ((answer: JqAnswer | Error) => void) | undefined;

  constructor(
    private readonly filter: string,
    private readonly t: Localize,
    private readonly signal: AbortSignal,
  ) {}

  async run(input: string): Promise<string> {
    const { t } = this;
    if (input.length > MAX_JQ_BYTES)
      throw new UsageError(
        t('The JSON is larger than {0} MB, more than --jq takes: write it with --json and run jq on it.', MAX_JQ_BYTES / 1024 / 1024),
      );
    const answer = await this.ask(input);
    if (answer.exitCode !== 0) throw new UsageError(jqMessage(answer.stderr));
    if (answer.stdout.length > MAX_JQ_BYTES)
      throw new UsageError(t('The --jq output is larger than {0} MB and was not written.', MAX_JQ_BYTES / 1024 / 1024));
    return answer.stdout === '' ? '' : `${answer.stdout.split('\n').map(resultLine).join('\n')}\n`;
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private ask(input: string): Promise<JqAnswer> {
    const { t } = this;
    // node:worker_threads is loaded here, on the first --jq, like jq itself.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    if (this.worker === undefined) {
      this.worker = new Worker(join(__dirname, 'jqWorker.js'));
      // A run that ends early (an error, Ctrl-C) is not held open by it.
      this.worker.unref();
    }
    const worker = this.worker;
    return new Promise<JqAnswer>((resolve, reject) => {
      const settle = (answer: JqAnswer | Error): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', onAbort);
        worker.off('message', this.onMessage);
        worker.off('error', onError);
        this.pending = undefined;
        if (answer instanceof Error) {
          this.close();
          reject(answer);
        } else resolve(answer);
      };
      const timer = setTimeout(() => {
        settle(new UsageError(t('The --jq expression ran longer than {0} seconds and was stopped.', JQ_TIMEOUT_MS / 1000)));
      }, JQ_TIMEOUT_MS);
      const onAbort = (): void => {
        settle(new Error(t('Cancelled.')));
      };
      const onError = (error: Error): void => {
        settle(new Error(t('jq could not run: {0}', error.message)));
      };
      this.pending = settle;
      this.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', this.onMessage);
      worker.once('error', onError);
      worker.postMessage({ input, filter: this.filter });
    });
  }

  private readonly onMessage = (answer: JqAnswer): void => {
    this.pending?.(answer);
  };
}

/** jq's own message, without its "jq: " prefixes and any character a terminal acts on, at most 2,000 characters. */
function jqMessage(stderr: string): string {
  return (
    stderr
      .replace(/^jq: /gm, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '')
      .trim()
      .slice(0, 2000)
  );
}

/** One jq result (jq -c): a string as its text, as gh and jq -r write it, with what a terminal acts on escaped; else JSON. */
function resultLine(line: string): string {
  if (!line.startsWith('"')) return jsonEscaped(line);
  const text = JSON.parse(line) as string;
  // eslint-disable-next-line no-control-regex
  return jsonEscaped(text).replace(/[\u0000-\u0008\u000b-\u001f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
