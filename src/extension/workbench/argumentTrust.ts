// The one rule for outside callers (command arguments, a `command:` link, the exported API, tools
// invoked outside a chat): what would send a request or change what is stored is confirmed in a modal,
// unless the argument proves it came from our own UI (a tree element, or the mark our links carry).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isRecord } from '../../core/common/guards';

/** Asks the user a modal question; the chosen action, or undefined when dismissed. */
export type Confirmer = (message: string, detail: string, action: string) => Thenable<string | undefined>;

/** What another extension asks, in the words of the modal that names it. */
export interface ExtensionRequest {
  readonly title: string;
  readonly detail: string;
  readonly action: string;
}

export class ArgumentTrust {
  private readonly linkKey = randomBytes(32);
  private readonly granted = new Set<string>();

  constructor(
    private readonly confirmer: Confirmer,
    private readonly notice = '',
  ) {}

  async confirm(request: ExtensionRequest): Promise<boolean> {
    const detail = this.notice === '' ? request.detail : `${request.detail}\n\n${this.notice}`;
    return (await this.confirmer(request.title, detail, request.action)) === request.action;
  }

  /**
   * The mark: an HMAC of the serial number (or environment) under a key made at activation; a
   * `command:` link someone else wrote does not carry it.
   */
  ownArgument<T extends { readonly serialNumber: string } | { readonly environment: string }>(fields: T): T & { readonly via: string } {
    return { ...fields, via: this.mark(subjectOf(fields) ?? '') };
  }

  /** For the demo's launcher, whose grant comes from the environment VS Code was launched with. */
  grantOnce(fields: { readonly serialNumber: string }): void {
    if (this.granted.size < 20) this.granted.add(subjectOf(fields) ?? '');
  }

  /** Whether a plain copy of an argument carries our mark for the serial number (or environment) it names, or a grant (used up here). */
  fromOwnUi(argument: Readonly<Record<string, unknown>> | undefined): boolean {
    const subject = argument === undefined ? undefined : subjectOf(argument);
    const via = argument?.['via'];
    if (subject !== undefined && this.granted.delete(subject)) return true;
    if (subject === undefined || typeof via !== 'string') return false;
    const expected = Buffer.from(this.mark(subject));
    const given = Buffer.from(via);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mark(subject: string): string {
    return createHmac('sha256', this.linkKey).update(subject).digest('base64url');
  }
}

/** What a mark vouches for: the serial number, else the environment, the argument names. */
function subjectOf(argument: Readonly<Record<string, unknown>>): string | undefined {
  const serialNumber = argument['serialNumber'];
  if (typeof serialNumber === 'string') return `serialNumber\0${serialNumber}`;
  const environment = argument['environment'];
  return typeof environment === 'string' ? `environment\0${environment}` : undefined;
}

/** Plain values only: what a command argument may carry into a decision. */
export type PlainValue = string | number | boolean | null;

/**
 * Each key read exactly once, before anything decides: a getter or a Proxy cannot answer one way to
 * the check and another to the action. Non-plain values and throwing reads are left out.
 */
export function plainArgument(
  value: unknown,
  keys: readonly string[],
  nested: Readonly<Record<string, readonly string[]>> = {},
): Record<string, PlainValue | Record<string, PlainValue>> | undefined {
  if (!isRecord(value)) return undefined;
  const copy: Record<string, PlainValue | Record<string, PlainValue>> = {};
  for (const key of [...keys, ...Object.keys(nested)]) {
    let read: unknown;
    try {
      read = value[key];
    } catch {
      continue;
    }
    const inner = nested[key];
    if (inner !== undefined) {
      const child = plainArgument(read, inner);
      if (child !== undefined) copy[key] = child as Record<string, PlainValue>;
    } else if (read === null || typeof read === 'string' || typeof read === 'number' || typeof read === 'boolean') {
      copy[key] = read;
    }
  }
  return copy;
}
