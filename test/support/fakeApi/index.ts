// The fake Onboarding Events service for tests, benchmarks and demos: one
// loopback HTTP server playing the token endpoint, the events endpoint and the
// machine resources of the spec, with faults on demand.

export { startFakeApi, startForeignOrigin, DEFAULT_CONFIG } from './server';
export {
  BASE_URL_PLACEHOLDER,
  TEST_ASSET_ID,
  TEST_CREDENTIALS,
  TEST_NO_PERMISSION_USER,
  TEST_SERIALS,
  defaultData,
  makeEvent,
  type MakeEventInput,
} from './data';
export { LOGIN_PAGE_HTML, MALFORMED_JSON } from './faultReplies';
export { EVENTS_PATH } from './eventsEndpoint';
export { TOKEN_PATH } from './tokenEndpoint';
export { MACHINES_PREFIX } from './machinesEndpoint';
export { onboardingScript, playOnboarding, SCRIPTED_ASSET_ID, type OnboardingPlay, type ScriptedStep } from './scriptedOnboarding';
export type {
  Envelope,
  EventOrder,
  FakeApi,
  FakeApiConfig,
  FakeApiData,
  FakeApiOptions,
  FakeClient,
  FakeUser,
  LoadStats,
  Fault,
  FaultAction,
  FaultEndpoint,
  FaultScope,
  RecordedRequest,
  TimestampFilter,
} from './types';
export {
  DEMO_BASE_TIME,
  DEMO_CREDENTIALS,
  DEMO_FAILING_SERIAL,
  DEMO_FAKE_CONFIG,
  DEMO_NO_PERMISSION_USER,
  DEMO_SERIALS,
  DEMO_SERIAL_PATTERN,
  DEMO_WATCHED_SERIALS,
  demoData,
} from './demoData';
