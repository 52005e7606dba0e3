// Issue 39: the built `oe` (dist/oe.js) as a user runs it, a process from start
// to exit, against the fake API in a worker thread (its work is not charged to
// the client), beside what the same run measures:
//   - `oe events SERIAL` beside the floor (two round trips, token and events, by
//     plain fetch in this process on warm connections), beside a plain Node
//     client as a process (the same two requests by fetch: Node's start plus the
//     floor), beside `node -e 0` (Node's start alone) and beside the same two
//     requests by the `curl` binary (the commands of `oe curl`, run by sh), all
//     interleaved. Judged: what oe does after loading its bundle (`oe events`
//     minus `oe --version`) beside what the plain client does after Node's start;
//     the load itself is printed as what we lose to curl.
//   - `oe check` over a generated folder of 5 MB in which 1,000 distinct serial
//     numbers repeat: the requests that reach the fake (at most one per distinct
//     serial number, one token) and the wall time, beside its floor: Node's start
//     plus ceil(1,000 / c) round trips of c requests at once (c the client's
//     ceiling of requests in flight, measured in the same run).
// Needs dist/oe.js (node esbuild.mjs); says so and misses its target otherwise.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { plainLocalize } from '../../src/core/common/localize';
import { DEFAULT_HTTP_SETTINGS } from '../../src/core/client/onboardingClient';
import { curlCommands } from '../../src/core/domain/links/curlCommands';
import { defaultData, makeEvent, TEST_CREDENTIALS, TEST_SERIALS } from '../support/fakeApi';
import { bareEvents, bareToken, median, ms, roundTripAt, timed, times } from './benchSupport';
import type { Benchmark } from './index';
import { RemoteFakeApi } from './remoteFakeApi';

const OE = resolve(__dirname, '../../../dist/oe.js');
const RUNS = 7;
const DISTINCT = 1000;
const FOLDER_BYTES = 5 * 1024 * 1024;
const FILES = 50;
const CEILING: number = DEFAULT_HTTP_SETTINGS.maxConcurrency;
/**
 * What oe does after loading (sign-in, 2 requests, exit) may take at most this many times what a plain Node
 * client does after Node's start (loading fetch, the 2 requests, exit). Loading oe's bundle is printed, not judged:
 * it buys the client, the rules and the messages, and no request is made in it.
 */
const EVENTS_AFTER_LOAD_OVER_PLAIN = 1.5;
/** oe check may take at most this many times its floor (scanning 5 MB and the limiter's ramp are not in the floor). */
const CHECK_OVER_FLOOR = 3;

const checkSerial = (index: number): string => `CHK-${String(index).padStart(4, '0')}-B${String(index).padStart(4, '0')}`;

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a process to its exit; the wall time from spawn to exit. */
function runProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<Exit & { readonly ms: number }> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      resolvePromise({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

function curlAvailable(): Promise<boolean> {
  return new Promise((resolvePromise) => {
    execFile('curl', ['--version'], (error) => {
      resolvePromise(error === null);
    });
  });
}

/** 5 MB of configuration-like text over FILES files in which DISTINCT serial numbers each occur many times. */
function writeCheckFolder(dir: string): number {
  mkdirSync(dir, { recursive: true });
  let written = 0;
  let line = 0;
  const perFile = Math.ceil(FOLDER_BYTES / FILES);
  for (let file = 0; file < FILES; file++) {
    const lines: string[] = [];
    let size = 0;
    while (size < perFile) {
      const text = `station_${line % 97}: { serial: "${checkSerial(line % DISTINCT)}", torque: ${(line * 7) % 400}, note: "line ${line}" }`;
      lines.push(text);
      size += text.length + 1;
      line++;
    }
    writeFileSync(join(dir, `line-${String(file).padStart(2, '0')}.yaml`), `${lines.join('\n')}\n`);
    written += size;
  }
  return written;
}

export const cliBench: Benchmark = {
  name: 'cli (oe events and oe check, process start to exit)',
  async run() {
    if (!existsSync(OE)) {
      console.log(`TARGET MISSED: ${OE} is not built; run node esbuild.mjs first`);
      return false;
    }
    const machines: Record<string, unknown[]> = { ...defaultData().machines };
    for (let i = 0; i < DISTINCT; i++)
      machines[checkSerial(i)] = [
        makeEvent({ type: 'ONBOARDING_COMPLETED', message: 'Onboarding completed', timestamp: Date.UTC(2025, 0, 15) }),
      ];
    const api = await RemoteFakeApi.start({ data: { ...defaultData(), machines } });
    const dir = mkdtempSync(join(tmpdir(), 'oe-bench-'));
    try {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env['PATH'],
        HOME: dir,
        OE_API_URL: api.baseUrl,
        OE_AUTH_URL: api.authUrl,
        OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
        OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret,
        OE_USERNAME: TEST_CREDENTIALS.username,
        OE_PASSWORD: TEST_CREDENTIALS.password,
      };
      const serial = TEST_SERIALS.onboarded;
      const expectOk = (exit: Exit, what: string): void => {
        if (exit.code !== 0) throw new Error(`${what} exited with ${String(exit.code)}: ${exit.stderr}`);
      };

      // --- oe events ---
      const plainClient = `
        const e = process.env;
        const basic = Buffer.from(encodeURIComponent(e.OE_CLIENT_ID) + ':' + encodeURIComponent(e.OE_CLIENT_SECRET)).toString('base64');
        (async () => {
          const token = await fetch(e.OE_AUTH_URL + '/token', { method: 'POST', headers: { authorization: 'Basic ' + basic },
            body: new URLSearchParams({ grant_type: 'password', username: e.OE_USERNAME, password: e.OE_PASSWORD, scope: 'api' }) });
          const { access_token } = await token.json();
          const events = await fetch(e.OE_API_URL + '/public/api/onboarding-events/events?serialNumber=' + encodeURIComponent(process.argv[1]),
            { headers: { authorization: 'Bearer ' + access_token } });
          process.stdout.write(await events.text());
        })();`;
      const script = curlCommands({ apiBaseUrl: api.baseUrl, authUrl: api.authUrl, serialNumber: serial }, plainLocalize);
      const hasCurl = await curlAvailable();
      const timedProcess = async (what: string, command: string, args: readonly string[]): Promise<number> => {
        const exit = await runProcess(command, args, env);
        expectOk(exit, what);
        return exit.ms;
      };
      const kinds = {
        floor: () => timed(async () => bareEvents(api, serial, await bareToken(api))),
        nodeStart: () => timedProcess('node -e 0', process.execPath, ['-e', '0']),
        plainNode: () => timedProcess('the plain Node client', process.execPath, ['-e', plainClient, serial]),
        oeVersion: () => timedProcess('oe --version', process.execPath, [OE, '--version']),
        oeEvents: () => timedProcess('oe events', process.execPath, [OE, 'events', serial, '--json']),
        curl: () => (hasCurl ? timedProcess('the curl commands', 'sh', ['-c', script]) : Promise.resolve(Number.NaN)),
      };
      // Interleaved, one of each per round, after an untimed round: two cores shared with other work drift, and all drift together.
      const samples = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, [] as number[]])) as Record<keyof typeof kinds, number[]>;
      for (let round = -1; round < RUNS; round++)
        for (const [kind, measure] of Object.entries(kinds)) {
          const value = await measure();
          if (round >= 0) samples[kind as keyof typeof kinds].push(value);
        }
      const [floor, nodeStart, plainNode, oeVersion, oeEvents, curlMs] = Object.values(samples).map(median) as [
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      const curl = hasCurl ? curlMs : undefined;
      // Judged: what oe does after loading (sign-in, the 2 requests, exit) beside what the plain client does after Node's start.
      const oeAfterLoad = oeEvents - oeVersion;
      const plainAfterStart = plainNode - nodeStart;

      console.log(`floor: token + events by plain fetch in this process (2 round trips)   ${ms(floor)}`);
      console.log(`node -e 0 (Node's own start)                                           ${ms(nodeStart)}`);
      console.log(`plain Node client as a process (start + the same 2 requests)           ${ms(plainNode)}`);
      console.log(`oe --version (Node's start + loading oe's bundle, no request)          ${ms(oeVersion)}`);
      console.log(
        `oe events ${serial} --json (start to exit)                         ${ms(oeEvents)}  (${times(oeEvents / plainNode)} the plain client)`,
      );
      console.log(
        curl === undefined
          ? 'curl: not installed here, not measured'
          : `the same 2 requests by curl (oe curl's commands, sh + 2 curl processes)  ${ms(curl)}`,
      );
      console.log(
        `after start: oe's sign-in, 2 requests and exit ${ms(oeAfterLoad)} (oe events − oe --version) beside the plain client's ${ms(plainAfterStart)} (${times(oeAfterLoad / plainAfterStart)})`,
      );
      if (curl !== undefined && curl < oeEvents)
        console.log(
          `  we lose to curl by ${ms(oeEvents - curl)}: Node's start (${ms(nodeStart)}) and loading oe's bundle (${ms(oeVersion - nodeStart)}: undici, the rules, three languages' messages) are paid before the first request; curl is a C binary that loads nothing of the kind`,
        );
      const eventsMet = oeAfterLoad <= EVENTS_AFTER_LOAD_OVER_PLAIN * plainAfterStart;

      // --- oe check ---
      const folder = join(dir, 'config');
      const bytes = writeCheckFolder(folder);
      const token = await bareToken(api);
      const round = await roundTripAt(api, token, CEILING, checkSerial);
      const checkFloor = nodeStart + Math.ceil(DISTINCT / CEILING) * round;
      await api.reset();
      const checkStarted = performance.now();
      const check = await runProcess(process.execPath, [OE, 'check', folder], env, dir);
      const checkMs = performance.now() - checkStarted;
      const counts = await api.counts();
      console.log(
        `oe check over ${(bytes / 1024 / 1024).toFixed(1)} MB in ${FILES} files, ${DISTINCT} distinct serial numbers: exit ${String(check.code)}, ${ms(checkMs)}; ` +
          `${counts.eventRequests} events requests, ${counts.tokenRequests} token requests`,
      );
      console.log(
        `  floor: Node's start + ${Math.ceil(DISTINCT / CEILING)} round trips of ${CEILING} at once (${ms(round)} each) = ${ms(checkFloor)}; oe check is ${times(checkMs / checkFloor)} it`,
      );
      if (checkMs > checkFloor)
        console.log(
          `  we lose ${ms(checkMs - checkFloor)} to the floor: reading and matching ${(bytes / 1024 / 1024).toFixed(1)} MB, and the limiter starting below its ceiling and opening connections as it goes, are not in it`,
        );
      const checkMet =
        check.code === 0 && counts.eventRequests <= DISTINCT && counts.tokenRequests === 1 && checkMs <= CHECK_OVER_FLOOR * checkFloor;
      if (check.code !== 0) console.log(`  oe check's stderr: ${check.stderr.slice(0, 500)}`);

      console.log(
        eventsMet
          ? `events: target met (after loading, oe within ${EVENTS_AFTER_LOAD_OVER_PLAIN}× a plain Node client after its start)`
          : 'events: TARGET MISSED',
      );
      console.log(
        checkMet
          ? `check: target met (at most one request per distinct serial number, one token, within ${CHECK_OVER_FLOOR}× the floor)`
          : 'check: TARGET MISSED',
      );
      return eventsMet && checkMet;
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await api.close();
    }
  },
};
