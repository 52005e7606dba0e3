// HAL links (spec §2.3–§2.4): parsed from untrusted JSON, expanded by a maintained RFC 6570 library,
// and opened only as plain http or https.

import type { HalLink } from './model';
import type { PrimitiveValue } from 'url-template' with { 'resolution-mode': 'import' };
import { isRecord } from '../common/guards';
import { plainLocalize, type Localize } from '../common/localize';

export type HalLinks = Readonly<Record<string, readonly HalLink[]>>;

export type LinkParseResult = { readonly ok: true; readonly links: HalLinks } | { readonly ok: false; readonly reason: string };

const LINK_FIELD_TYPES = {
  href: 'string',
  templated: 'boolean',
  type: 'string',
  deprecation: 'string',
  name: 'string',
  profile: 'string',
  title: 'string',
  hreflang: 'string',
  seen: 'string',
} as const;

type LinkField = keyof typeof LINK_FIELD_TYPES;

function isLinkField(name: string): name is LinkField {
  return Object.prototype.hasOwnProperty.call(LINK_FIELD_TYPES, name);
}

/** A relation holds one link or an array (HAL allows both); `null` fields read as absent, as serialisers emit them. */
export function parseLinks(value: unknown, t: Localize = plainLocalize, path = '_links'): LinkParseResult {
  if (value === undefined || value === null) return { ok: true, links: {} };
  if (!isRecord(value)) return { ok: false, reason: t('{0} must be an object', path) };
  // Collected as entries: fromEntries keeps a relation named "__proto__" as an own property instead of a prototype.
  const links: [string, HalLink[]][] = [];
  for (const [relation, entry] of Object.entries(value)) {
    const entries = Array.isArray(entry) ? entry : [entry];
    const parsed: HalLink[] = [];
    for (const [index, item] of entries.entries()) {
      const where = Array.isArray(entry) ? `${path}.${relation}[${index}]` : `${path}.${relation}`;
      const link = parseLink(item, where, t);
      if (typeof link === 'string') return { ok: false, reason: link };
      parsed.push(link);
    }
    links.push([relation, parsed]);
  }
  return { ok: true, links: Object.fromEntries(links) };
}

function parseLink(value: unknown, path: string, t: Localize): HalLink | string {
  if (!isRecord(value)) return t('{0} must be an object', path);
  const link: Record<string, unknown> = {};
  const extra: [string, unknown][] = [];
  for (const [name, fieldValue] of Object.entries(value)) {
    if (!isLinkField(name)) {
      extra.push([name, fieldValue]);
      continue;
    }
    if (fieldValue === null || fieldValue === undefined) continue;
    const expected = LINK_FIELD_TYPES[name];
    // The JSON type's name stays as it is: it names what the field must hold, like the field's path.
    if (typeof fieldValue !== expected) return t('{0} must be a {1}', `${path}.${name}`, expected);
    link[name] = fieldValue;
  }
  if (extra.length > 0) link['extra'] = Object.fromEntries(extra);
  return link;
}

export type TemplateVariables = Readonly<Record<string, PrimitiveValue | readonly PrimitiveValue[]>>;

interface UrlTemplateModule {
  parseTemplate(template: string): { expand(context: Record<string, PrimitiveValue | PrimitiveValue[]>): string };
}

let urlTemplate: UrlTemplateModule | undefined;

/** url-template is an ES module only; require() on first use (Node 20.19+, esbuild) keeps it off activation. */
function loadUrlTemplate(): UrlTemplateModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  urlTemplate ??= require('url-template') as UrlTemplateModule;
  return urlTemplate;
}

/** A non-templated href is never treated as a template. */
export function expandLink(link: HalLink, variables: TemplateVariables = {}): string | undefined {
  if (link.href === undefined) return undefined;
  if (link.templated !== true) return link.href;
  const context: Record<string, PrimitiveValue | PrimitiveValue[]> = {};
  for (const [name, value] of Object.entries(variables))
    context[name] = Array.isArray(value) ? [...(value as readonly PrimitiveValue[])] : (value as PrimitiveValue);
  return loadUrlTemplate().parseTemplate(link.href).expand(context);
}

export function resolveHref(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).toString();
  } catch {
    return undefined;
  }
}

/** `javascript:`, `command:`, `file:` and `data:` are refused; the URL parser already refuses a missing host. */
export function isOpenable(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface LinkDeprecation {
  readonly deprecated: boolean;
  /** HAL's `deprecation` is a URL explaining the deprecation; given only when it is safe to open. */
  readonly infoUrl?: string;
  readonly raw?: string;
}

export function linkDeprecation(link: HalLink): LinkDeprecation {
  if (link.deprecation === undefined) return { deprecated: false };
  return isOpenable(link.deprecation)
    ? { deprecated: true, infoUrl: link.deprecation, raw: link.deprecation }
    : { deprecated: true, raw: link.deprecation };
}
