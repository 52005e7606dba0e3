// The agents the user paired, who a channel caller is (by the key it presents,
// never the name it gives), when the pairing question may be asked, and the
// hook that asks about a paired agent's call. vscode-free.
import { createHash, randomBytes } from 'node:crypto';
import { pairingNeededText, declinedInVsCodeText } from '../domain/agentTools/toolDefinitions';
import type { PairingAnswer, ToolAnswer } from './channel';

/** What the pairings are kept in: VS Code's SecretStorage (shared by the windows of a profile). */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** The secret store's key of the pairings. */
export const PAIRINGS_SECRET = 'onboardingEvents.agentPairings';
/** Pairings kept at most: each is a line in the revoke list. */
const MAX_PAIRINGS = 20;
/** The global state key of the agent keys Connect an Agent wrote into agents' configurations (one per agent kind). */
export const AGENT_KEYS_KEY = 'onboardingEvents.agentKeys';
/** How long Connect an Agent waits for its agent to ask to be paired. */
export const PAIRING_WAIT_MS = 10 * 60_000;

export interface Pairing {
  readonly id: string;
  /** The name the agent's MCP client gave when it was paired, as the user saw it in the question. */
  readonly agent: string;
  /** SHA-256 of the pairing key (base64url): the key itself is the agent's. */
  readonly digest: string;
  /** When the user agreed (ms since the epoch). */
  readonly paired: number;
  /** Made for a server VS Code started from this window: held in memory, ended with the window or by revoking it. */
  readonly launch?: true;
}

/** Who called through the channel: an outside caller with the window's key only, or an agent the user paired. */
export type McpCaller = { readonly kind: 'unpaired' } | { readonly kind: 'paired'; readonly agent: string };

const digestOf = (key: string): string => createHash('sha256').update(key).digest('base64url');

function isPairing(value: unknown): value is Pairing {
  if (typeof value !== 'object' || value === null) return false;
  const { id, agent, digest, paired } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof agent === 'string' && typeof digest === 'string' && typeof paired === 'number';
}

/** The paired agents: those in the secret store, and this window's launches. */
export class AgentPairings {
  readonly #launches: Pairing[] = [];

  constructor(private readonly secrets: SecretStore) {}

  async list(): Promise<Pairing[]> {
    return [...(await this.stored()), ...this.#launches];
  }

  /** The caller a pairing key makes: paired only when the key's digest is one of the pairings, whatever name it gives. */
  async callerOf(key: string | undefined): Promise<McpCaller> {
    if (key === undefined || key === '') return { kind: 'unpaired' };
    const digest = digestOf(key);
    const pairing = (await this.list()).find((candidate) => candidate.digest === digest);
    return pairing === undefined ? { kind: 'unpaired' } : { kind: 'paired', agent: pairing.agent };
  }

  /** A new pairing for `agent`: its key, which only the agent keeps. */
  async add(agent: string): Promise<string> {
    const { key, pairing } = newPairing(agent);
    await this.store([...(await this.stored()), pairing].slice(-MAX_PAIRINGS));
    return key;
  }

  /** A pairing for a server VS Code starts from this window: never stored, listed until revoked. */
  addLaunch(agent: string): string {
    const { key, pairing } = newPairing(agent);
    this.#launches.push({ ...pairing, launch: true });
    return key;
  }

  async remove(ids: ReadonlySet<string>): Promise<void> {
    this.#launches.splice(0, this.#launches.length, ...this.#launches.filter((pairing) => !ids.has(pairing.id)));
    const stored = await this.stored();
    const kept = stored.filter((pairing) => !ids.has(pairing.id));
    if (kept.length !== stored.length) await this.store(kept);
  }

  private async stored(): Promise<Pairing[]> {
    try {
      const stored = JSON.parse((await this.secrets.get(PAIRINGS_SECRET)) ?? '[]') as unknown;
      return Array.isArray(stored) ? stored.filter(isPairing).map(({ id, agent, digest, paired }) => ({ id, agent, digest, paired })) : [];
    } catch {
      return [];
    }
  }

  private async store(pairings: readonly Pairing[]): Promise<void> {
    await (pairings.length === 0 ? this.secrets.delete(PAIRINGS_SECRET) : this.secrets.store(PAIRINGS_SECRET, JSON.stringify(pairings)));
  }
}

function newPairing(agent: string): { key: string; pairing: Pairing } {
  const key = randomBytes(32).toString('base64url');
  return { key, pairing: { id: randomBytes(6).toString('hex'), agent, digest: digestOf(key), paired: Date.now() } };
}

/**
 * When the pairing question may be asked: from Connect an Agent until `waitMs` passed (then `onExpired`
 * says so), so no program can raise the question at any other time.
 */
export class PairingWindow {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #asking = false;

  constructor(
    private readonly onChange: () => void,
    private readonly onExpired: () => void,
    private readonly waitMs: number = PAIRING_WAIT_MS,
  ) {}

  get open(): boolean {
    return this.#timer !== undefined;
  }

  /** Connect an Agent ran: the question may be asked for `waitMs` from now. */
  expect(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.onChange();
      this.onExpired();
    }, this.waitMs);
    this.onChange();
  }

  /** Asks the user (through `confirm`) to pair the agent that calls itself `agent`. */
  async pair(pairings: AgentPairings, agent: string, confirm: () => Promise<boolean>): Promise<PairingAnswer> {
    if (!this.open) return { kind: 'closed' };
    // One question at a time: a second caller racing the first is not shown beside it.
    if (this.#asking) return { kind: 'declined' };
    this.#asking = true;
    try {
      if (!(await confirm())) return { kind: 'declined' };
      return { kind: 'paired', pairing: await pairings.add(agent) };
    } finally {
      this.#asking = false;
    }
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * The answerer's question hook for a call from the channel: `requestOf` words the question (undefined when it
 * needs no asking); an unpaired caller gets "pair first" without a question, a paired one is asked through
 * `confirm`, and only a yes lets the call run.
 */
export function pairedAsk<Question, Request>(
  tool: string,
  caller: McpCaller,
  requestOf: (question: Question) => Request | undefined,
  confirm: (request: Request) => Promise<boolean>,
): (question: Question) => Promise<ToolAnswer | undefined> {
  return async (question) => {
    const request = requestOf(question);
    if (request === undefined) return undefined;
    if (caller.kind === 'unpaired') return { text: pairingNeededText(tool), pairingNeeded: true };
    return (await confirm(request)) ? undefined : { text: declinedInVsCodeText(tool) };
  };
}
