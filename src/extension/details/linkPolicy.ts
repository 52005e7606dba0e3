// Which of an event's links the page may open, fetch or copy: the target is recomputed from the event
// the host holds, never taken from the page; only http(s) goes out.
import { isOpenable } from '../../core/client/hal';
import type { OnboardingEvent } from '../../core/client/model';
import type { LinkTargetView, VariableValues } from './protocol';
import { linkById, resolveLinkTarget } from './viewModel';

/** `allow`: `url` is exactly what is shown and opened, `host` shown on its own; `refuse`: `shown` instead (null: nothing). */
export type LinkDecision =
  | { readonly kind: 'allow'; readonly url: string; readonly host: string }
  | { readonly kind: 'refuse'; readonly shown: string | null; readonly reason: LinkRefusal };

/**
 * `userinfo` makes "https://good.com@evil.com" read as good.com; `disguised`: bidi, zero-width or
 * control characters, whitespace and backslashes, which make a URL read as another.
 */
export type LinkRefusal = 'scheme' | 'userinfo' | 'disguised';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const DISGUISING = /[\u0000-\u0020\u007f-\u00a0\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/;

/** The URL as it will be opened, or why it may not be: the one judgement every open and fetch passes. */
export function externalUrl(
  raw: string,
): { readonly ok: true; readonly url: string; readonly host: string } | { readonly ok: false; readonly reason: LinkRefusal } {
  if (DISGUISING.test(raw)) return { ok: false, reason: 'disguised' };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, reason: 'scheme' };
  }
  // The URL parser itself refuses an http(s) URL without a host ("http://"), so no empty-host check is needed.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  if (parsed.username !== '' || parsed.password !== '' || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw))
    return { ok: false, reason: 'userinfo' };
  // The host as the browser will resolve it: internationalised names in their xn-- form, so look-alike letters show.
  return { ok: true, url: parsed.href, host: parsed.host };
}

/** Where the event holds the links, and the API base relative links resolve against (none while signed out). */
export interface LinkRequest {
  readonly event: OnboardingEvent;
  readonly apiBaseUrl: string | undefined;
}

export function linkTarget(request: LinkRequest, linkId: number, variables: VariableValues): LinkTargetView | undefined {
  const flat = linkById(request.event, linkId);
  return flat ? resolveLinkTarget(flat.link, variables, request.apiBaseUrl) : undefined;
}

function decide(openable: boolean, url: string | null): LinkDecision {
  if (!openable || url === null) return { kind: 'refuse', shown: url, reason: 'scheme' };
  const checked = externalUrl(url);
  return checked.ok ? { kind: 'allow', url: checked.url, host: checked.host } : { kind: 'refuse', shown: url, reason: checked.reason };
}

export function openDecision(request: LinkRequest, linkId: number, variables: VariableValues): LinkDecision | undefined {
  const target = linkTarget(request, linkId, variables);
  return target === undefined ? undefined : decide(target.openable, target.url);
}

/** Opening a deprecated link's explanation (HAL: a URL); undefined when the link is unknown or not deprecated. */
export function deprecationDecision(request: LinkRequest, linkId: number): LinkDecision | undefined {
  const url = linkById(request.event, linkId)?.link.deprecation;
  return url === undefined ? undefined : decide(isOpenable(url), url);
}

/** Fetching a link with the user's sign-in: an unknown link is refused like a non-http(s) one (the page asked for it). */
export function fetchDecision(request: LinkRequest, linkId: number, variables: VariableValues): LinkDecision {
  const target = linkTarget(request, linkId, variables);
  return target === undefined ? { kind: 'refuse', shown: null, reason: 'scheme' } : decide(target.openable, target.url);
}

/** The text "Copy URL" puts on the clipboard: the resolved target as shown, whatever its scheme. */
export function copyableUrl(request: LinkRequest, linkId: number | undefined, variables: VariableValues = {}): string | undefined {
  if (linkId === undefined) return undefined;
  return linkTarget(request, linkId, variables)?.url ?? undefined;
}
