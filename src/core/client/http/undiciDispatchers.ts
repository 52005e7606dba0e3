// undici's dispatchers without undici's index: the index also loads fetch, WebSocket, the mocks and the
// caches, and they wake Node's own copy of undici, which costs a command-line run more than the request.
// The transport needs the agents and dispatcher.request() only, which the index adds as this does.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Undici from 'undici';

const Dispatcher = require('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
Object.assign(Dispatcher.prototype, require('undici/lib/api') as object);

export const Agent = require('undici/lib/dispatcher/agent') as typeof Undici.Agent;
export const Pool = require('undici/lib/dispatcher/pool') as typeof Undici.Pool;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent') as typeof Undici.ProxyAgent;
