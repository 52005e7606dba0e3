// Pure: which of an event's links the page may have opened, fetched or
// copied. The page names a link by its id (and template values); the target is
// looked up in the event the host holds and recomputed here, so a URL from the
// page is never trusted. Only http(s) targets go to the browser or the API
// client; anything else is refused and shown as text. Unit-tested.
import { isOpenable } from '../core/hal';
import type { OnboardingEvent } from '../core/model';
import type { LinkTargetView, VariableValues } from './protocol';
import { linkById, resolveLinkTarget } from './viewModel';

/** `allow`: the URL may be opened or fetched. `refuse`: it may not; `shown` is what to show the user instead (null: nothing). */
export type LinkDecision = { readonly kind: 'allow'; readonly url: string } | { readonly kind: 'refuse'; readonly shown: string | null };

/** Where the event holds the links, and the API base relative links resolve against (none while signed out). */
export interface LinkRequest {
  readonly event: OnboardingEvent;
  readonly apiBaseUrl: string | undefined;
}

/** The target of link `linkId` with `variables` filled in, or undefined when the event has no such link. */
export function linkTarget(request: LinkRequest, linkId: number, variables: VariableValues): LinkTargetView | undefined {
  const flat = linkById(request.event, linkId);
  return flat ? resolveLinkTarget(flat.link, variables, request.apiBaseUrl) : undefined;
}

function decide(openable: boolean, url: string | null): LinkDecision {
  return openable && url !== null ? { kind: 'allow', url } : { kind: 'refuse', shown: url };
}

/** Opening a link in the browser; undefined (do nothing) when the event has no such link. */
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
  return target === undefined ? { kind: 'refuse', shown: null } : decide(target.openable, target.url);
}

/** The text "Copy URL" puts on the clipboard: the resolved target as shown, whatever its scheme. */
export function copyableUrl(request: LinkRequest, linkId: number | undefined, variables: VariableValues = {}): string | undefined {
  if (linkId === undefined) return undefined;
  return linkTarget(request, linkId, variables)?.url ?? undefined;
}
