// What the page shows of a validated event; every string is the server's, rendered as text by the page.

import { expandLink, isOpenable, linkDeprecation, resolveHref } from '../../core/client/hal';
import { pageText } from '../../core/common/serverText';
import type { HalLink, OnboardingEvent } from '../../core/client/model';
import { HAL_LINK_FIELDS, type EventView, type FieldView, type LinkTargetView, type LinkView, type VariableValues } from './protocol';
import { formatAbsolute, formatRaw, formatRelative, formatUtcIso } from '../../core/common/time';

// url-template expands templates but does not list their variables: this reads them by RFC 6570
// §2.2–2.4 for the form of a templated link.

/** Operators of RFC 6570 levels 2–4. `= , ! @ |` are reserved for future use: such expressions have no variables we can fill. */
const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED = new Set(['=', ',', '!', '@', '|']);

/** varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
/** modifier-level4 = prefix / explode; prefix = ":" max-length (1–9999) */
const MODIFIER = /(?::[1-9][0-9]{0,3}|\*)$/;

/** Names in the order they first appear; invalid varspecs are skipped rather than guessed at. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
    let expression = match[1] ?? '';
    const first = expression.charAt(0);
    if (RESERVED.has(first)) continue;
    if (OPERATORS.has(first)) expression = expression.slice(1);
    for (const varspec of expression.split(',')) {
      const name = varspec.replace(MODIFIER, '');
      if (VARNAME.test(name) && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

export interface FlatLink {
  readonly relation: string;
  readonly link: HalLink;
}

/** A link's id is its index here: relation order as sent, then array order. */
export function flattenLinks(event: OnboardingEvent): FlatLink[] {
  return Object.entries(event.links).flatMap(([relation, links]) => links.map((link) => ({ relation, link })));
}

export function linkById(event: OnboardingEvent, id: number): FlatLink | undefined {
  return flattenLinks(event)[id];
}

/** JSON text of an arbitrary value; never throws (cycles cannot occur in parsed JSON, but BigInt-like oddities are stringified). */
export function jsonText(value: unknown): string {
  try {
    // JSON.stringify returns undefined for undefined and functions, whatever its typing says.
    const text = JSON.stringify(value) as unknown;
    return typeof text === 'string' ? text : String(value);
  } catch {
    // Parsed JSON is pruned to MAX_JSON_DEPTH at the edge, so this is a value from elsewhere; String() of it could throw too.
    return '[unprintable value]';
  }
}

/**
 * What the user sees before anything opens: expanded (only when `templated`), resolved, judged
 * openable only for http(s). Empty variables are omitted, as RFC 6570 does.
 */
export function resolveLinkTarget(link: HalLink, variables: VariableValues, apiBaseUrl: string | undefined): LinkTargetView {
  if (link.href === undefined) return { url: null, openable: false, blocked: 'no-href' };
  let expanded: string | undefined;
  try {
    const filled: Record<string, string> = {};
    for (const [name, value] of Object.entries(variables)) if (value !== '') filled[name] = value;
    expanded = expandLink(link, filled);
  } catch {
    return { url: link.href, openable: false, blocked: 'malformed' };
  }
  if (expanded === undefined) return { url: null, openable: false, blocked: 'no-href' };
  // Same base as the core's fetchLink: a trailing slash, so "machines/1" resolves under the base path.
  const resolved =
    apiBaseUrl === undefined ? absoluteUrl(expanded) : resolveHref(expanded, apiBaseUrl.endsWith('/') ? apiBaseUrl : `${apiBaseUrl}/`);
  if (resolved === undefined) return { url: expanded, openable: false, blocked: 'malformed' };
  return isOpenable(resolved) ? { url: resolved, openable: true, blocked: null } : { url: resolved, openable: false, blocked: 'scheme' };
}

function absoluteUrl(href: string): string | undefined {
  try {
    return new URL(href).toString();
  } catch {
    return undefined;
  }
}

function linkFields(link: HalLink): FieldView[] {
  return HAL_LINK_FIELDS.map((name) => {
    const value = link[name];
    return { name, value: value === undefined ? null : String(value) };
  });
}

function extraFields(extra: Readonly<Record<string, unknown>> | undefined): FieldView[] {
  return Object.entries(extra ?? {}).map(([name, value]) => ({ name, value: jsonText(value) }));
}

/** `/machines/{assetId}` opens filled in. */
export function prefilledValues(variables: readonly string[], event: OnboardingEvent): VariableValues {
  const known: Readonly<Record<string, string | undefined>> = { assetId: event.assetId, serialNumber: event.serialNumber };
  const values: Record<string, string> = {};
  for (const name of variables) {
    const value = known[name];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

export function buildLinkView(id: number, flat: FlatLink, apiBaseUrl: string | undefined, event?: OnboardingEvent): LinkView {
  const { link, relation } = flat;
  const deprecation = linkDeprecation(link);
  const templated = link.templated === true;
  const variables = templated && link.href !== undefined ? templateVariables(link.href) : [];
  const values = event ? prefilledValues(variables, event) : {};
  return {
    id,
    relation,
    fields: linkFields(link),
    extra: extraFields(link.extra),
    deprecated: deprecation.deprecated,
    deprecation: deprecation.raw ?? null,
    deprecationOpenable: deprecation.infoUrl !== undefined,
    templated,
    variables,
    values,
    target: resolveLinkTarget(link, values, apiBaseUrl),
  };
}

export interface EventViewOptions {
  readonly title: string;
  readonly locale: string;
  readonly nowMs: number;
  readonly apiBaseUrl?: string;
  readonly timeZone?: string;
  readonly outOfRange: string;
}

export function buildEventView(event: OnboardingEvent, options: EventViewOptions): EventView {
  const { time } = event;
  return {
    title: options.title,
    type: pageText(event.type),
    message: pageText(event.message),
    serialNumber: event.serialNumber,
    assetId: event.assetId ?? null,
    time: {
      local: formatAbsolute(time.epochMs, options.locale, options.timeZone) ?? options.outOfRange,
      utcIso: formatUtcIso(time.epochMs) ?? options.outOfRange,
      relative: formatRelative(time.epochMs, options.nowMs, options.locale) ?? options.outOfRange,
      epochMs: time.epochMs,
      raw: formatRaw(time.raw, options.locale),
      unit: time.unit,
      detected: time.detected,
    },
    links: flattenLinks(event).map((flat, id) => buildLinkView(id, flat, options.apiBaseUrl, event)),
    extra: extraFields(event.extra),
    locale: options.locale,
  };
}
