// The one rule for what other extensions may do, held at every entry point: command
// arguments (which any extension, and a `command:` link in any notification
// or trusted Markdown, can pass), the exported API, and language model tools
// invoked outside a chat (vscode.lm.invokeTool with no toolInvocationToken).
//
//   Another extension may read what the user's own views already fetched
//   (api.events.peek sends nothing). Anything else it asks that would send a
//   request in the user's name or change what is stored (credentials,
//   environments, settings, the Machines view's lists) is confirmed by the
//   user in a modal that names what is asked (`confirm` below), whatever
//   mode the extension runs in (under our tests too: they answer the modal as
//   a user would, from the test side). The one exception: requests that
//   provably come from our own UI.
//
// A command handler cannot tell who called it, so "our own UI" is proved by
// the argument, never assumed:
// - A menu or a quick fix runs the command with no argument (the view's
//   selection), with a tree element for a machine that is already listed,
//   or through the extension host's command cache, which hands back the very
//   objects our code built. Acting on a machine the user already lists sends
//   nothing the view would not send itself, so that needs no modal either.
// - A link's arguments are JSON in a `command:` URI, which anyone can write,
//   so the links and buttons our own UI builds (hover, document links, quick
//   fixes, the look-up, the URI handler after its own question) add `via`:
//   an HMAC of the serial number (or environment) under a key made at
//   activation and kept in memory (ownArgument). A `command:` link written
//   by someone else, in a notification, a chat answer or another
//   extension's Markdown, does not carry it. An extension that reads our
//   hover or links through vscode.executeHoverProvider/executeLinkProvider
//   can copy a mark, but only for a serial number in a document it had our
//   providers read, and our hover provider loads that machine anyway: a mark
//   opens no entry point wider than the providers' own (README, "Security").
// Arguments are read once, into a plain copy (plainArgument), before anything
// decides on them: a getter or a Proxy cannot answer one way to the check and
// another way to the action.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isRecord } from '../../core/common/guards';

/** Asks the user a modal question; the chosen action, or undefined when dismissed. */
export type Confirmer = (message: string, detail: string, action: string) => Thenable<string | undefined>;

/** What another extension asks, in the words of the modal that names it. */
export interface ExtensionRequest {
  /** The question: names the environment, machine or file concerned. */
  readonly title: string;
  /** What happens if the user agrees. */
  readonly detail: string;
  /** The button that agrees. */
  readonly action: string;
}

export class ArgumentTrust {
  private readonly linkKey = randomBytes(32);
  private readonly granted = new Set<string>();

  /**
   * @param confirmer VS Code's modal (extension.ts passes window.showWarningMessage with `modal: true`).
   * @param notice The last line of every modal: who asks and why to check.
   */
  constructor(
    private readonly confirmer: Confirmer,
    private readonly notice = '',
  ) {}

  /** The rule above, for a request that is not provably our own UI's: true when the user agreed in the modal. */
  async confirm(request: ExtensionRequest): Promise<boolean> {
    const detail = this.notice === '' ? request.detail : `${request.detail}\n\n${this.notice}`;
    return (await this.confirmer(request.title, detail, request.action)) === request.action;
  }

  /** `fields` with the mark our own links, buttons and quick fixes carry (see the top of this file). */
  ownArgument<T extends { readonly serialNumber: string } | { readonly environment: string }>(fields: T): T & { readonly via: string } {
    return { ...fields, via: this.mark(subjectOf(fields) ?? '') };
  }

  /**
   * Grants one argument naming this machine, once: for the demo's launcher, whose grant comes
   * from the environment VS Code was launched with (domain/session/argumentSignIn.ts), which
   * is as much the user's as anything they type.
   */
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
 * A plain copy of `keys` of an argument, each read exactly once; values that
 * are not strings, numbers, booleans or null (and reads that throw) are left
 * out. Undefined when the argument is not an object. `nested` keys are copied
 * the same way one level down (e.g. `{ prefill: { … } }`).
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
