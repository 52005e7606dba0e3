// The fake service's contract: what tests configure, inject and observe. Kept
// in one file so the endpoints, the fault engine and the tests agree on names.

import type { LoadStats } from './capacity';

export type { LoadStats } from './capacity';

/**
 * The spec (§4.1) leaves the meaning of `timestamp` open, so the fake lets a
 * test pick one and check that the client copes with each.
 */
export type TimestampFilter = 'after-inclusive' | 'after-exclusive' | 'before-inclusive' | 'ignore';

/** Spec §4.1 rule 3: ordering is not shown, so the client must not rely on it. */
export type EventOrder = 'asc' | 'desc' | 'shuffled';

/** `plain` is the documented `{events:[...]}`; the others are the §2.5 list envelopes. */
export type Envelope = 'plain' | 'page' | 'cursor';

export interface FakeApiConfig {
  order: EventOrder;
  envelope: Envelope;
  timestampFilter: TimestampFilter;
  /** Content-Type of JSON answers; `null` sends no Content-Type at all. */
  contentType: string | null;
  tokenLifetimeSeconds: number;
  /** Spec does not say what an unknown serial returns: an empty list or a 404. */
  unknownSerial: 'empty' | '404';
  /** Status of the token answer for a user marked `noPermission` (spec §5.5). */
  noPermissionStatus: 400 | 403;
  /** Delay added to every request, to simulate round-trip time in benchmarks. */
  latencyMs: number;
  /** Default `limit` of the cursor envelope (spec §8: defined per endpoint). */
  cursorDefaultLimit: number;
  /** Requests served at once (their latency is the service time); 0 = unlimited. */
  capacity: number;
  /** Requests waiting for a slot beyond `capacity`, their wait added to their latency; more get 429. */
  queueLimit: number;
  /** Retry-After, in seconds, of the 429 sent when the queue is full. */
  overflowRetryAfterSeconds: number;
  /** Requests per wall-clock second; more get 429 with a Retry-After date at the next second. 0 = unlimited. */
  rateLimit: number;
}

export interface FakeUser {
  username: string;
  password: string;
  /** The token endpoint answers `access_denied` for this user (spec §5.5). */
  noPermission?: boolean;
}

export interface FakeClient {
  clientId: string;
  clientSecret: string;
}

export interface FakeApiData {
  users: FakeUser[];
  clients: FakeClient[];
  /** serialNumber → raw event objects, sent as-is so tests can include invalid ones. */
  machines: Record<string, unknown[]>;
  /**
   * assetId → machine resource for `GET /public/api/machines/{assetId}`. When an
   * assetId is missing here the fake derives a resource from the machine-created
   * event that carries it.
   */
  assets?: Record<string, unknown>;
  /** Faults that are always active with this data set; `clearFaults()` keeps them. */
  permanentFaults?: Fault[];
}

export type FaultEndpoint = 'token' | 'events' | 'machines' | 'other';

/** Which requests a fault applies to, and how many times before it clears itself. */
export interface FaultScope {
  endpoint?: FaultEndpoint;
  serialNumber?: string;
  /** Number of matching requests it affects; unlimited when absent. */
  times?: number;
}

export type FaultAction =
  /** Waits before answering normally (or before the next fault's answer). */
  | { kind: 'latency'; ms: number }
  /** Any status, optionally with a body (string sent as-is, otherwise JSON) and headers. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** 429 with Retry-After given as seconds or as an HTTP-date. */
  | { kind: 'rateLimit'; retryAfter: number | string | Date }
  /** Destroys the socket without an answer (TCP RST where the platform allows). */
  | { kind: 'reset' }
  /** Sends the normal answer in small chunks with a pause between them. */
  | { kind: 'slowBody'; chunkBytes?: number; delayMs: number }
  /** 200 application/json whose body is not JSON. */
  | { kind: 'malformedJson' }
  /** 200 text/html login page, as a captive portal or an SSO proxy would send. */
  | { kind: 'html' }
  /**
   * 200 application/json of exactly `bytes` bytes (valid JSON, mostly padding),
   * announced by Content-Length unless `chunked`, which streams it with no
   * length given (as a proxy that re-encodes would), so only a cap on the
   * bytes actually read can stop it.
   */
  | { kind: 'hugeBody'; bytes: number; chunked?: boolean }
  /** Answers the matching requests with another envelope than configured. */
  | { kind: 'envelope'; envelope: Envelope };

export type Fault = FaultScope & FaultAction;

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the request was fully received. */
  at: number;
}

export interface FakeApiOptions extends Partial<FakeApiConfig> {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to `defaultData()`, which accepts TEST_CREDENTIALS. */
  data?: FakeApiData;
  /**
   * A "foreign origin" instance: it answers every GET with 200 JSON and requires
   * no token, so a test can check whether the client leaked its bearer token
   * to another origin (see `receivedAuthorization()`).
   */
  foreignOrigin?: boolean;
  /**
   * Opt-in HTTPS: listen with this key and certificate (PEM) instead of plain
   * HTTP, as the real API does; base and authorization URLs then start with
   * https://. The caller makes the certificate and tells its clients whom to trust.
   */
  tls?: { readonly key: string; readonly cert: string };
}

export interface FakeApi {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  readonly config: Readonly<FakeApiConfig>;
  addFault(fault: Fault): void;
  clearFaults(): void;
  setLatency(ms: number): void;
  configure(patch: Partial<FakeApiConfig>): void;
  revokeAllTokens(): void;
  setPassword(username: string, password: string): void;
  /** Also invalidates the tokens issued to that user. */
  removeUser(username: string): void;
  addUser(user: FakeUser): void;
  setMachineEvents(serial: string, events: unknown[]): void;
  addEvent(serial: string, event: unknown): void;
  /**
   * Holds the next requests for `serial`'s events until `count` of them wait (or `timeoutMs`
   * passed), then answers them all at once, from the data of that moment: two clients that
   * poll at their own pace see a change together (the two-window test of Watch Onboarding).
   */
  holdEventRequests(serial: string, count: number, timeoutMs: number): void;
  clearRequests(): void;
  /** Requests that reached `POST /oauth/token`. */
  tokenRequests(): RecordedRequest[];
  /** Requests that reached the events endpoint, optionally for one serial. */
  eventRequests(serial?: string): RecordedRequest[];
  /** True when any recorded request carried an Authorization header. */
  receivedAuthorization(): boolean;
  /** What the capacity and rate limits saw (see `capacity`, `queueLimit`, `rateLimit`). */
  loadStats(): LoadStats;
  resetLoadStats(): void;
  close(): Promise<void>;
}
