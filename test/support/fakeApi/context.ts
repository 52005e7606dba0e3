// What every endpoint handler may read or change: the live configuration, the
// data set and the token store of one fake server.

import type { RecordedRequest, FakeApiConfig, FakeApiData } from './types';
import type { TokenStore } from './tokens';
import type { Reply } from './reply';

export interface EndpointContext {
  readonly request: RecordedRequest;
  readonly config: Readonly<FakeApiConfig>;
  readonly data: FakeApiData;
  readonly tokens: TokenStore;
  readonly baseUrl: string;
  /** Envelope for this request: the configured one unless an envelope fault overrides it. */
  readonly envelope: FakeApiConfig['envelope'];
}

export type Handler = (context: EndpointContext) => Reply;
