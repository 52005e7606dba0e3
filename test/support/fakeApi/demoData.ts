// A realistic data set for demos, screenshots and manual testing: ~40
// industrial machines at various stages of onboarding. Deterministic (seeded
// PRNG, fixed base time) so screenshots stay the same from run to run.
//
// hrefs: by default every href starts with BASE_URL_PLACEHOLDER, which the
// fake replaces with its own http://127.0.0.1:PORT when it sends a response,
// so the data can be built before the port is known. Pass `baseUrl` to get
// absolute hrefs instead (e.g. to write the data to a file).

import { BASE_URL_PLACEHOLDER, makeEvent } from './data';
import { EVENTS_PATH } from './eventsEndpoint';
import { MACHINES_PREFIX } from './machinesEndpoint';
import { seededRandom } from './ordering';
import type { FakeApiData } from './types';

/**
 * Serial numbers: a product family of 2–4 uppercase letters, a dash, a 4-digit
 * model number, a dash, a plant letter and a 4-digit sequence number, e.g.
 * `MX-4711-A0023`. RegExp source without anchors, so it can find serials
 * inside text: `new RegExp(`\\b${DEMO_SERIAL_PATTERN}\\b`)`.
 */
export const DEMO_SERIAL_PATTERN = '[A-Z]{2,4}-[0-9]{4}-[A-Z][0-9]{4}';

/** Clearly fake credentials accepted by the demo data. */
export const DEMO_CREDENTIALS = {
  clientId: 'demo-client',
  clientSecret: 'demo-secret:not/real',
  username: 'demo@example.invalid',
  password: 'demo-password',
} as const;

/** A demo user whose token request is refused with access_denied (spec §5.5). */
export const DEMO_NO_PERMISSION_USER = {
  username: 'no-permission@example.invalid',
  password: 'demo-password',
} as const;

/** Every request for this serial fails with 500 (a permanent fault of the demo data). */
export const DEMO_FAILING_SERIAL = 'KRP-0815-B0042';

/** Machines with a known role in the demo, for scripts and screenshots. */
export const DEMO_SERIALS = {
  /** A complete onboarding: started → … → machine created → completed. */
  completed: 'MX-4711-A0023',
  failing: DEMO_FAILING_SERIAL,
  /** Carries a hostile message and a javascript: link, for security demos. */
  hostile: 'TBL-2200-C0666',
  /** Known machine without any events yet. */
  empty: 'WELD-3100-D0007',
  /** Its links are templated (RFC 6570), and it has the one deprecated link of the demo. */
  templatedLinks: 'CNC-5200-E0101',
  /** Onboarding failed at the certificate step. */
  failed: 'PRS-0900-A0314',
  /** Onboarding started, not finished yet. */
  inProgress: 'LSR-6060-F0042',
  /** Not in the data: the demo's fake answers 404 for it (DEMO_FAKE_CONFIG), so it shows as unknown. */
  unknown: 'MX-9999-Z0001',
} as const;

/** Machines the demo watches while their onboarding plays (scripts/demo.mjs): not in the data until the play adds them. */
export const DEMO_WATCHED_SERIALS = {
  completes: 'LSR-7000-G0101',
  fails: 'LSR-7000-G0102',
} as const;

/**
 * Line 4 (issues 38, 44): a line whose own history teaches its usual steps.
 * Twenty-four assembly robots onboarded over the last days through the same
 * steps at varying speeds (a quarter of them with a rejected certificate
 * retried on the way), four in progress now, timed from when the data is
 * built (the fake's start), so "in progress" and "stalled" hold whenever the
 * demo runs, and one that went silent five months ago (abandoned).
 */
export const DEMO_LINE4_SERIALS = {
  // The machines in progress first: the board's default order (by serial number) shows them at the top.
  /** At FIRMWARE_CHECKED since five months: abandoned, not "likely done" in minutes. */
  abandoned: 'ASM-8800-H0100',
  /** At CERTIFICATE_ISSUED for a few minutes: on time. */
  onTime: 'ASM-8800-H0101',
  /** At FIRMWARE_CHECKED for hours, where the line takes minutes: stalled. */
  stalled: 'ASM-8800-H0102',
  /** Went from ONBOARDING_STARTED to CERTIFICATE_ISSUED without DEVICE_REGISTERED: a step missing. */
  missingStep: 'ASM-8800-H0103',
  /** Started a minute ago. */
  started: 'ASM-8800-H0104',
  onboarded: Array.from({ length: 24 }, (_, i) => `ASM-8800-H01${String(i + 5).padStart(2, '0')}`),
} as const;

/**
 * How the demo (and its screenshots) run the fake: an unknown serial number
 * gets a 404, so "unknown to the platform" can be told from "no events yet".
 * The real API's answer for it is not specified (spec §7).
 */
export const DEMO_FAKE_CONFIG = { unknownSerial: '404' } as const;

/**
 * "Now" of the demo: events lie in the ~6 months before it. It is the start of
 * the current UTC day, so the demo looks recent ("3 days ago", not "2 years
 * ago") while the data stays the same all day long, run after run.
 */
export const DEMO_BASE_TIME = Math.floor(Date.now() / 86_400_000) * 86_400_000;

const DAY = 86_400_000;
const MINUTE = 60_000;

const FAMILIES: readonly { code: string; models: readonly string[]; kind: string }[] = [
  { code: 'MX', models: ['4711', '4800', '5010'], kind: 'Milling centre' },
  { code: 'KRP', models: ['0815', '1200'], kind: 'Press brake' },
  { code: 'TBL', models: ['1000', '2200'], kind: 'Turning lathe' },
  { code: 'WELD', models: ['3100', '3300'], kind: 'Welding robot' },
  { code: 'CNC', models: ['5200', '7000'], kind: 'CNC router' },
  { code: 'PRS', models: ['0900'], kind: 'Hydraulic press' },
  { code: 'LSR', models: ['6060', '6100'], kind: 'Laser cutter' },
];

const PLANTS = ['A', 'B', 'C', 'D', 'E', 'F'];
const FIRMWARE = ['4.2.1', '4.2.3', '4.3.0', '5.0.0-rc2', '3.9.7'];

type Scenario = 'completed' | 'failed' | 'in-progress' | 'empty';

interface Machine {
  serial: string;
  family: (typeof FAMILIES)[number];
  scenario: Scenario;
}

class Generator {
  private readonly random = seededRandom(20250602);

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) {
      throw new Error('pick from an empty list');
    }
    return item;
  }

  /** A version-4-shaped UUID from the seeded generator, so asset ids are stable. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = ((this.int(0, 15) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

function familyOf(code: string): (typeof FAMILIES)[number] {
  const family = FAMILIES.find((f) => f.code === code);
  if (family === undefined) {
    throw new Error(`unknown family ${code}`);
  }
  return family;
}

function machines(gen: Generator): Machine[] {
  const fixed: Machine[] = [
    { serial: DEMO_SERIALS.completed, family: familyOf('MX'), scenario: 'completed' },
    { serial: DEMO_SERIALS.failing, family: familyOf('KRP'), scenario: 'completed' },
    { serial: DEMO_SERIALS.hostile, family: familyOf('TBL'), scenario: 'completed' },
    { serial: DEMO_SERIALS.empty, family: familyOf('WELD'), scenario: 'empty' },
    { serial: DEMO_SERIALS.templatedLinks, family: familyOf('CNC'), scenario: 'completed' },
    { serial: DEMO_SERIALS.failed, family: familyOf('PRS'), scenario: 'failed' },
  ];
  const all = [...fixed];
  const seen = new Set(all.map((m) => m.serial));
  while (all.length < 40) {
    const family = gen.pick(FAMILIES);
    const serial = `${family.code}-${gen.pick(family.models)}-${gen.pick(PLANTS)}${String(gen.int(1, 9999)).padStart(4, '0')}`;
    if (seen.has(serial)) {
      continue;
    }
    seen.add(serial);
    const roll = gen.int(1, 100);
    const scenario: Scenario = roll <= 60 ? 'completed' : roll <= 75 ? 'failed' : roll <= 95 ? 'in-progress' : 'empty';
    all.push({ serial, family, scenario });
  }
  // Added after the generated ones, so the seeded sequence (and every screenshot) of the others stays the same.
  all.push({ serial: DEMO_SERIALS.inProgress, family: familyOf('LSR'), scenario: 'in-progress' });
  return all;
}

const FAILURES = [
  'Certificate signing request rejected: RSA key shorter than 3072 bits.',
  'Device did not answer the registration challenge within 300 s.',
  'Firmware 3.9.7 is below the minimum supported version 4.0.0.',
  'Gateway reported a duplicate serial number.',
];

interface Built {
  events: Record<string, unknown>[];
  asset?: { assetId: string; created: number };
}

function buildEvents(gen: Generator, machine: Machine, base: string): Built {
  if (machine.scenario === 'empty') {
    return { events: [] };
  }
  let t = DEMO_BASE_TIME - gen.int(1, 180) * DAY - gen.int(0, 23 * 60) * MINUTE;
  const next = (): number => (t += gen.int(1, 25) * MINUTE + gen.int(0, 59) * 1000);
  const operator = gen.pick(['j.schmidt', 'a.novak', 'm.rossi', 'k.tanaka', 'l.meyer']);
  const gateway = `GW-${gen.pick(PLANTS)}${gen.int(1, 12)}`;
  const firmware = gen.pick(FIRMWARE);
  const events: Record<string, unknown>[] = [
    makeEvent({ type: 'ONBOARDING_STARTED', message: `Onboarding started by ${operator}@example.invalid`, timestamp: t }),
    makeEvent({ type: 'DEVICE_REGISTERED', message: `Device registered with gateway ${gateway}`, timestamp: next() }),
  ];
  const steps = machine.scenario === 'in-progress' ? gen.int(0, 2) : 3;
  if (machine.scenario === 'failed') {
    events.push(
      makeEvent({
        type: 'ONBOARDING_FAILED',
        message: `Onboarding failed: ${gen.pick(FAILURES)}`,
        timestamp: next(),
        extra: { errorCode: `OB-${gen.int(100, 599)}` },
      }),
    );
    return { events };
  }
  if (steps >= 1) {
    const until = new Date(t + 365 * DAY).toISOString().slice(0, 10);
    events.push(
      makeEvent({
        type: 'CERTIFICATE_ISSUED',
        message: `Device certificate issued (CN=${machine.serial}, valid until ${until})`,
        timestamp: next(),
      }),
    );
  }
  if (steps >= 2) {
    events.push(makeEvent({ type: 'FIRMWARE_CHECKED', message: `Firmware ${firmware} checked: accepted`, timestamp: next() }));
  }
  if (steps < 3) {
    return { events };
  }
  const assetId = gen.uuid();
  const created = next();
  events.push(
    makeEvent({
      type: 'MACHINE_CREATED',
      message: `Machine asset created: ${machine.family.kind} ${machine.serial}`,
      timestamp: created,
      assetId,
      extra: {
        _links: {
          machine: {
            href: `${base}${MACHINES_PREFIX}${assetId}`,
            title: `${machine.family.kind} ${machine.serial}`,
            type: 'application/hal+json',
            name: machine.serial,
          },
        },
      },
    }),
  );
  events.push(
    makeEvent({
      type: 'ONBOARDING_COMPLETED',
      message: `Onboarding completed in ${Math.round((created - (events[0]?.['timestamp'] as number)) / MINUTE)} min`,
      timestamp: next(),
    }),
  );
  return { events, asset: { assetId, created } };
}

/** The special cases layered on top of the generated events. */
function decorate(serial: string, built: Built, base: string): void {
  const created = built.events.find((e) => e['type'] === 'MACHINE_CREATED');
  if (serial === DEMO_SERIALS.templatedLinks && created !== undefined && built.asset !== undefined) {
    const id = built.asset.assetId;
    created['_links'] = {
      machine: {
        href: `${base}${MACHINES_PREFIX}${id}{?view}`,
        templated: true,
        title: `CNC router ${serial}`,
        type: 'application/hal+json',
        name: serial,
      },
      machineEvents: {
        href: `${base}${MACHINES_PREFIX}{assetId}/events{?from,to}`,
        templated: true,
        title: 'Events of this machine',
        type: 'application/json',
      },
      legacyMachine: {
        href: `${base}${MACHINES_PREFIX}${id}`,
        deprecation: 'https://example.invalid/docs/deprecations/legacy-machine-link',
        title: 'Machine (legacy link)',
        type: 'application/hal+json',
      },
    };
  }
  if (serial === DEMO_SERIALS.hostile && created !== undefined) {
    created['message'] = '<img src=x onerror=alert(1)>';
    created['_links'] = {
      machine: {
        href: 'javascript:alert(document.domain)',
        title: '<script>alert("title")</script>',
        name: '"><svg onload=alert(2)>',
      },
    };
    built.events.push(
      makeEvent({
        type: 'FIRMWARE_CHECKED',
        message: 'Firmware note: [open terminal](command:workbench.action.terminal.new) **bold** `code`',
        timestamp: (created['timestamp'] as number) + 1000,
      }),
    );
  }
}

/** Line 4's steps: each with how long it takes after the step before on this line, in minutes (from, to). */
const LINE4_STEPS: readonly { readonly type: string; readonly minutes: readonly [number, number]; readonly message: string }[] = [
  { type: 'ONBOARDING_STARTED', minutes: [0, 0], message: 'Onboarding started by k.tanaka@example.invalid' },
  { type: 'DEVICE_REGISTERED', minutes: [2, 6], message: 'Device registered with gateway GW-H4' },
  { type: 'CERTIFICATE_ISSUED', minutes: [5, 12], message: 'Device certificate issued' },
  { type: 'FIRMWARE_CHECKED', minutes: [8, 18], message: 'Firmware 5.1.2 checked: accepted' },
  { type: 'MACHINE_CREATED', minutes: [3, 9], message: 'Machine asset created: Assembly robot' },
];

/** Line 4 (DEMO_LINE4_SERIALS) into `data`: its own seeded sequence, so every other machine of the demo stays as it was. */
function addLine4(data: FakeApiData, now: number): void {
  const gen = seededRandom(38);
  const minutes = ([from, to]: readonly [number, number]): number => (from + gen() * (to - from)) * MINUTE;
  const run = (serial: string, start: number, steps: number, skip?: string, retry = false): Record<string, unknown>[] => {
    const events: Record<string, unknown>[] = [];
    let t = start;
    for (const step of LINE4_STEPS.slice(0, steps)) {
      t += Math.round(minutes(step.minutes));
      if (step.type === skip) continue;
      // Rework: the certificate rejected once, and issued on the second try a while later.
      if (retry && step.type === 'CERTIFICATE_ISSUED') {
        events.push(makeEvent({ type: 'CERTIFICATE_REJECTED', message: 'Certificate signing request rejected: retrying', timestamp: t }));
        t += Math.round(minutes([10, 20]));
      }
      const created = step.type === 'MACHINE_CREATED';
      const assetId = created ? `8800${serial.slice(-4)}-0000-4000-8000-${String(t).slice(-12).padStart(12, '0')}` : undefined;
      events.push(
        makeEvent({
          type: step.type,
          message: created ? `${step.message} ${serial}` : step.message,
          timestamp: t,
          ...(assetId === undefined ? {} : { assetId }),
        }),
      );
    }
    return events;
  };
  DEMO_LINE4_SERIALS.onboarded.forEach((serial, i) => {
    const events = run(serial, now - (13 - i * 0.5) * DAY, LINE4_STEPS.length, undefined, i % 4 === 1);
    const last = events.at(-1)?.['timestamp'] as number;
    events.push(makeEvent({ type: 'ONBOARDING_COMPLETED', message: 'Onboarding completed', timestamp: last + 2 * MINUTE }));
    data.machines[serial] = events;
  });
  // In progress, timed back from now: each newest event lies where the story needs it.
  const endingAt = (events: Record<string, unknown>[], newestAgo: number): Record<string, unknown>[] => {
    const shift = now - newestAgo - ((events.at(-1)?.['timestamp'] as number | undefined) ?? now);
    return events.map((event) => ({ ...event, timestamp: (event['timestamp'] as number) + shift }));
  };
  data.machines[DEMO_LINE4_SERIALS.onTime] = endingAt(run(DEMO_LINE4_SERIALS.onTime, 0, 3), 4 * MINUTE);
  data.machines[DEMO_LINE4_SERIALS.stalled] = endingAt(
    run(DEMO_LINE4_SERIALS.stalled, 0, 4, undefined, true),
    2 * 60 * MINUTE + 40 * MINUTE,
  );
  data.machines[DEMO_LINE4_SERIALS.missingStep] = endingAt(run(DEMO_LINE4_SERIALS.missingStep, 0, 3, 'DEVICE_REGISTERED'), 6 * MINUTE);
  data.machines[DEMO_LINE4_SERIALS.started] = endingAt(run(DEMO_LINE4_SERIALS.started, 0, 1), MINUTE);
  data.machines[DEMO_LINE4_SERIALS.abandoned] = endingAt(run(DEMO_LINE4_SERIALS.abandoned, 0, 4), 141 * DAY + 3 * 60 * MINUTE);
}

/** The demo data set; see the file comment for how hrefs are resolved. Line 4 is timed back from `now` (the fake's start). */
export function demoData(baseUrl: string = BASE_URL_PLACEHOLDER, now: number = Date.now()): FakeApiData {
  const gen = new Generator();
  const data: FakeApiData = {
    users: [
      { username: DEMO_CREDENTIALS.username, password: DEMO_CREDENTIALS.password },
      { ...DEMO_NO_PERMISSION_USER, noPermission: true },
    ],
    clients: [{ clientId: DEMO_CREDENTIALS.clientId, clientSecret: DEMO_CREDENTIALS.clientSecret }],
    machines: {},
    assets: {},
    permanentFaults: [
      {
        kind: 'status',
        status: 500,
        endpoint: 'events',
        serialNumber: DEMO_FAILING_SERIAL,
        body: { status: 500, error: 'Internal Server Error', message: 'Device registry unavailable.', path: EVENTS_PATH },
      },
    ],
  };
  for (const machine of machines(gen)) {
    const built = buildEvents(gen, machine, baseUrl);
    decorate(machine.serial, built, baseUrl);
    data.machines[machine.serial] = built.events;
    if (built.asset !== undefined && data.assets !== undefined) {
      data.assets[built.asset.assetId] = {
        assetId: built.asset.assetId,
        serialNumber: machine.serial,
        name: `${machine.family.kind} ${machine.serial}`,
        model: `${machine.family.code}-${machine.serial.split('-')[1] ?? ''}`,
        plant: `Plant ${machine.serial.split('-')[2]?.charAt(0) ?? '?'}`,
        createdAt: new Date(built.asset.created).toISOString(),
        _links: {
          self: { href: `${baseUrl}${MACHINES_PREFIX}${built.asset.assetId}` },
          events: { href: `${baseUrl}${EVENTS_PATH}?serialNumber=${encodeURIComponent(machine.serial)}` },
        },
      };
    }
  }
  addLine4(data, now);
  return data;
}
