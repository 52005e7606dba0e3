// `npm run fake-api`: runs the fake service on loopback for manual testing,
// demos and screenshots, until SIGINT or SIGTERM.

import { parseArgs } from 'node:util';
import { DEMO_CREDENTIALS, DEMO_FAILING_SERIAL, DEMO_SERIALS, DEMO_SERIAL_PATTERN, demoData } from './demoData';
import { TEST_CREDENTIALS, defaultData } from './data';
import { startFakeApi } from './server';

const USAGE = `Usage: npm run fake-api -- [options]
  --port N             port on 127.0.0.1 (default 0: a free port, printed)
  --demo               serve the demo data set (default)
  --test-data          serve the small unit-test data set instead
  --latency MS         delay every request by MS milliseconds
  --token-lifetime S   access token lifetime in seconds (default 3600)
  --capacity C         serve at most C requests at once (default 0: unlimited);
                       the latency is each request's service time
  --queue Q            let Q more wait for a slot (their wait adds to latency);
                       beyond that answer 429 with Retry-After (default 0)
  --overflow-retry-after S
                       the Retry-After of that 429, in seconds (default 1)
  --rate-limit R       at most R requests per second; beyond that 429 with a
                       Retry-After date at the next second (default 0: none)
  --help               show this text`;

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) {
    throw new Error(`--${name} needs a non-negative number, got "${value}"`);
  }
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      demo: { type: 'boolean' },
      'test-data': { type: 'boolean' },
      latency: { type: 'string' },
      'token-lifetime': { type: 'string' },
      capacity: { type: 'string' },
      queue: { type: 'string' },
      'overflow-retry-after': { type: 'string' },
      'rate-limit': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const useTestData = values['test-data'] === true && values.demo !== true;
  const port = numberOption(values.port, 'port');
  const latencyMs = numberOption(values.latency, 'latency');
  const tokenLifetimeSeconds = numberOption(values['token-lifetime'], 'token-lifetime');
  const capacity = numberOption(values.capacity, 'capacity');
  const queueLimit = numberOption(values.queue, 'queue');
  const overflowRetryAfterSeconds = numberOption(values['overflow-retry-after'], 'overflow-retry-after');
  const rateLimit = numberOption(values['rate-limit'], 'rate-limit');

  const api = await startFakeApi({
    data: useTestData ? defaultData() : demoData(),
    ...(port !== undefined ? { port } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(tokenLifetimeSeconds !== undefined ? { tokenLifetimeSeconds } : {}),
    ...(capacity !== undefined ? { capacity: Math.floor(capacity) } : {}),
    ...(queueLimit !== undefined ? { queueLimit: Math.floor(queueLimit) } : {}),
    ...(overflowRetryAfterSeconds !== undefined ? { overflowRetryAfterSeconds: Math.floor(overflowRetryAfterSeconds) } : {}),
    ...(rateLimit !== undefined ? { rateLimit: Math.floor(rateLimit) } : {}),
  });
  const credentials = useTestData ? TEST_CREDENTIALS : DEMO_CREDENTIALS;

  console.log(`Fake Onboarding Events API (${useTestData ? 'test' : 'demo'} data) — loopback only, fake credentials`);
  console.log(`  base URL:      ${api.baseUrl}`);
  console.log(`  auth URL:      ${api.authUrl}`);
  console.log(`  client id:     ${credentials.clientId}`);
  console.log(`  client secret: ${credentials.clientSecret}`);
  console.log(`  username:      ${credentials.username}`);
  console.log(`  password:      ${credentials.password}`);
  const { capacity: c, queueLimit: q, rateLimit: r } = api.config;
  if (c > 0 || r > 0) {
    console.log(
      `  load limits:   ${c > 0 ? `${c} at once, ${q} queued, then 429` : 'no capacity limit'}; ${r > 0 ? `${r} requests/s` : 'no rate limit'}`,
    );
  }
  if (!useTestData) {
    console.log(`  serial format: ${DEMO_SERIAL_PATTERN}`);
    console.log(
      `  try serials:   ${DEMO_SERIALS.completed} (complete), ${DEMO_SERIALS.failed} (failed), ` +
        `${DEMO_SERIALS.templatedLinks} (templated links), ${DEMO_SERIALS.hostile} (hostile content), ` +
        `${DEMO_FAILING_SERIAL} (always 500)`,
    );
  }
  console.log('Press Ctrl+C to stop.');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`\n${signal}: stopping after ${api.requests.length} requests.`);
    void api.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => {
    stop('SIGINT');
  });
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(USAGE);
  process.exit(2);
});
