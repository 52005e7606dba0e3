// The details page: nodes built with common/page/dom.ts only, as the event is server data. It asks the
// host for anything that needs trust by link id, never by URL, and validates every message.

import {
  isHostMessage,
  type EventView,
  type FieldView,
  type HostMessage,
  type LinkTargetView,
  type LinkView,
  type PageMessage,
  type PageStrings,
  type VariableValues,
} from '../protocol';
import { plainLocalize } from '../../../core/common/localize';
import { announce, button, el, icon, pageChannel } from '../../../core/common/page/dom';
import { formatRelative } from '../../../core/common/time';

const channel = pageChannel<PageMessage, HostMessage>(isHostMessage);
const { post } = channel;

let seq = 0;
/** Latest request per link: an older reply arriving late is ignored. */
const latestExpand = new Map<number, number>();
const pendingFetch = new Map<number, number>();
/** Per link: the inputs of its template form, and the nodes the replies update. */
const linkUi = new Map<
  number,
  {
    inputs: Map<string, HTMLInputElement>;
    url: HTMLElement;
    reason: HTMLElement;
    open: HTMLButtonElement;
    fetch: HTMLButtonElement;
    copy: HTMLButtonElement;
  }
>();
let relativeTimer: ReturnType<typeof setInterval> | undefined;

function field(list: HTMLDListElement, term: string, value: Node | string, className?: string): HTMLElement {
  const dd = el('dd', className);
  if (typeof value === 'string') dd.textContent = value;
  else dd.append(value);
  list.append(el('dt', undefined, term), dd);
  return dd;
}

function fieldValue(f: FieldView, strings: PageStrings): HTMLElement {
  return f.value === null ? el('span', 'absent', strings.notSent) : el('span', 'value', f.value);
}

function variablesOf(linkId: number): VariableValues {
  const values: Record<string, string> = {};
  for (const [name, input] of linkUi.get(linkId)?.inputs ?? []) if (input.value !== '') values[name] = input.value;
  return values;
}

function blockedText(target: LinkTargetView, strings: PageStrings): string {
  switch (target.blocked) {
    case 'no-href':
      return strings.blockedNoHref;
    case 'malformed':
      return strings.blockedMalformed;
    case 'scheme':
      return strings.blockedScheme;
    case null:
      return '';
  }
}

function showTarget(linkId: number, target: LinkTargetView, strings: PageStrings): void {
  const ui = linkUi.get(linkId);
  if (!ui) return;
  ui.url.textContent = target.url ?? strings.notSent;
  ui.url.classList.toggle('blocked', !target.openable);
  ui.reason.textContent = blockedText(target, strings);
  ui.reason.hidden = target.openable;
  ui.open.disabled = !target.openable;
  ui.fetch.disabled = !target.openable || pendingFetch.has(linkId);
  ui.copy.disabled = target.url === null;
}

function renderLink(link: LinkView, strings: PageStrings): HTMLElement {
  const headingId = `link-${link.id}-heading`;
  const article = el('article', link.deprecated ? 'link deprecated' : 'link', undefined, { 'aria-labelledby': headingId });
  const heading = el('h3', undefined, undefined, { id: headingId });
  heading.append(icon('link'), el('span', 'relation', link.relation));
  if (link.deprecated) heading.append(el('span', 'badge badge-deprecated', strings.deprecated));
  if (link.templated) heading.append(el('span', 'badge', strings.templated));
  article.append(heading);

  if (link.deprecated) {
    const note = el('div', 'deprecation', undefined, { role: 'note' });
    note.append(icon('warning'), el('span', undefined, strings.deprecatedBecause), el('span', 'value', link.deprecation ?? ''));
    if (link.deprecationOpenable)
      note.append(
        button(strings.openDeprecationInfo, 'link-external', () => {
          post({ type: 'open-deprecation', linkId: link.id });
        }),
      );
    article.append(note);
  }

  const inputs = new Map<string, HTMLInputElement>();
  if (link.templated && link.variables.length > 0) {
    const form = el('form', 'template', undefined, { 'aria-label': strings.templateVariables });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
    });
    const fieldset = el('fieldset');
    fieldset.append(el('legend', undefined, strings.templateVariables));
    for (const name of link.variables) {
      const id = `link-${link.id}-var-${inputs.size}`;
      const row = el('div', 'variable');
      const input = el('input', undefined, undefined, { id, type: 'text', spellcheck: 'false', autocomplete: 'off' });
      input.value = link.values[name] ?? '';
      input.addEventListener('input', () => {
        const mine = ++seq;
        latestExpand.set(link.id, mine);
        post({ type: 'expand', seq: mine, linkId: link.id, variables: variablesOf(link.id) });
      });
      inputs.set(name, input);
      row.append(el('label', undefined, name, { for: id }), input);
      fieldset.append(row);
    }
    fieldset.append(el('p', 'hint', strings.variablesHint));
    form.append(fieldset);
    article.append(form);
  }

  const target = el('div', 'target');
  const urlLabelId = `link-${link.id}-url`;
  target.append(el('span', 'label', link.templated ? strings.expandedUrl : strings.target, { id: urlLabelId }));
  const url = el('code', 'url', undefined, { 'aria-labelledby': urlLabelId, 'aria-live': link.templated ? 'polite' : 'off' });
  const reason = el('p', 'reason');
  target.append(url, reason);
  article.append(target);

  const actions = el('div', 'actions', undefined, { role: 'group', 'aria-label': strings.actions });
  const open = button(
    strings.open,
    'link-external',
    () => {
      post({ type: 'open', linkId: link.id, variables: variablesOf(link.id) });
    },
    { aria: plainLocalize(strings.openAria, link.relation), className: 'primary' },
  );
  const fetchButton = button(
    strings.fetch,
    'cloud-download',
    () => {
      const mine = ++seq;
      pendingFetch.set(link.id, mine);
      fetchButton.disabled = true;
      announce(strings.fetching);
      post({ type: 'fetch', seq: mine, linkId: link.id, variables: variablesOf(link.id) });
    },
    { aria: plainLocalize(strings.fetchAria, link.relation) },
  );
  const copy = button(strings.copyUrl, 'copy', () => {
    post({ type: 'copy', what: 'url', linkId: link.id, variables: variablesOf(link.id) });
  });
  actions.append(open, fetchButton, copy);
  article.append(actions);

  const fields = el('dl', 'fields', undefined, { 'aria-label': strings.linkFields });
  for (const f of link.fields) field(fields, f.name, fieldValue(f, strings), f.name === 'href' ? 'href' : undefined);
  article.append(fields);
  if (link.extra.length > 0) {
    const extra = el('dl', 'fields extra', undefined, { 'aria-label': strings.otherLinkFields });
    for (const f of link.extra) field(extra, f.name, fieldValue(f, strings));
    article.append(el('h4', undefined, strings.otherLinkFields), extra);
  }

  linkUi.set(link.id, { inputs, url, reason, open, fetch: fetchButton, copy });
  showTarget(link.id, link.target, strings);
  return article;
}

function render(event: EventView, strings: PageStrings): void {
  linkUi.clear();
  latestExpand.clear();
  pendingFetch.clear();
  const root = document.getElementById('root');
  if (!root) return;
  const main = el('div', 'page');

  const header = el('header');
  const h1 = el('h1', undefined, undefined, { id: 'event-type' });
  h1.append(icon(event.assetId === null ? 'pulse' : 'vm'), el('span', 'type', event.type));
  const message = el('p', 'message', event.message, { id: 'event-message' });
  const toolbar = el('div', 'toolbar', undefined, { role: 'toolbar', 'aria-label': strings.actions });
  toolbar.append(
    button(strings.copyJson, 'json', () => {
      post({ type: 'copy', what: 'json' });
    }),
    button(strings.showRawJson, 'go-to-file', () => {
      post({ type: 'show-raw-json' });
    }),
    button(
      strings.exportEvents,
      'export',
      () => {
        post({ type: 'export-events' });
      },
      { aria: plainLocalize(strings.exportEventsAria, event.serialNumber) },
    ),
  );
  header.append(h1, message, toolbar);
  main.append(header);

  const details = el('section', 'event', undefined, { 'aria-labelledby': 'event-heading' });
  details.append(el('h2', undefined, strings.eventHeading, { id: 'event-heading' }));
  const facts = el('dl', 'fields');
  field(facts, strings.type, event.type);
  field(facts, strings.message, event.message, 'message-value');
  field(facts, strings.serialNumber, copyable(event.serialNumber, strings.copySerialNumberAria, 'serialNumber'));
  if (event.assetId === null) field(facts, strings.assetId, el('span', 'absent', strings.assetIdAbsent));
  else field(facts, strings.assetId, copyable(event.assetId, strings.copyAssetIdAria, 'assetId'));
  const time = el('dl', 'time');
  field(time, strings.timeLocal, event.time.local);
  field(time, strings.timeUtc, el('code', undefined, event.time.utcIso));
  const relative = field(time, strings.timeRelative, event.time.relative);
  const unit = event.time.unit === 'seconds' ? strings.unitSeconds : strings.unitMilliseconds;
  const raw = el('span');
  raw.append(
    el('code', undefined, event.time.raw),
    el('span', 'unit', ` ${unit} · ${event.time.detected ? strings.unitDetected : strings.unitFromSetting}`),
  );
  field(time, strings.timeRaw, raw);
  field(facts, strings.time, time);
  details.append(facts);
  main.append(details);

  if (event.extra.length > 0) {
    const other = el('section', 'extra', undefined, { 'aria-labelledby': 'extra-heading' });
    other.append(el('h2', undefined, strings.otherFields, { id: 'extra-heading' }));
    const extra = el('dl', 'fields');
    for (const f of event.extra) field(extra, f.name, fieldValue(f, strings));
    other.append(extra);
    main.append(other);
  }

  const links = el('section', 'links', undefined, { 'aria-labelledby': 'links-heading' });
  links.append(el('h2', undefined, plainLocalize(strings.linksHeading, event.links.length), { id: 'links-heading' }));
  if (event.links.length === 0) links.append(el('p', 'absent', strings.noLinks));
  const list = el('div', 'link-list');
  for (const link of event.links) list.append(renderLink(link, strings));
  links.append(list);
  main.append(links);

  root.replaceChildren(main);
  root.removeAttribute('aria-busy');
  // The panel's context menu hands this to "Copy Link to Machine" (webview/context in package.json);
  // set through the dataset, so the serial number is JSON text in an attribute, never markup.
  document.body.dataset['vscodeContext'] = JSON.stringify({ serialNumber: event.serialNumber, preventDefaultContextMenuItems: false });

  if (relativeTimer !== undefined) clearInterval(relativeTimer);
  relativeTimer = setInterval(() => {
    const text = formatRelative(event.time.epochMs, Date.now(), event.locale);
    if (text !== undefined) relative.textContent = text;
  }, 30_000);
}

/** A value with a button that copies it (the host's own copy of it, not the page's). */
function copyable(value: string, label: string, what: 'serialNumber' | 'assetId'): HTMLElement {
  const span = el('span', 'with-copy');
  span.append(
    el('code', undefined, value),
    button(
      label,
      'copy',
      () => {
        post({ type: 'copy', what });
      },
      { iconOnly: true, className: 'icon' },
    ),
  );
  return span;
}

let currentStrings: PageStrings | undefined;
/** The raw event last shown, to tell another event from a refresh of the same one. */
let lastShown: string | undefined;

function receive(message: HostMessage): void {
  switch (message.type) {
    case 'show': {
      // Another event in the same page (the preview follows the selection): start at its top.
      const shownBefore = lastShown;
      lastShown = JSON.stringify(message.state.raw);
      currentStrings = message.strings;
      channel.setState(message.state);
      render(message.event, message.strings);
      if (shownBefore !== undefined && shownBefore !== lastShown) window.scrollTo(0, 0);
      return;
    }
    case 'expanded':
      if (latestExpand.get(message.linkId) === message.seq && currentStrings) showTarget(message.linkId, message.target, currentStrings);
      return;
    case 'fetched': {
      if (pendingFetch.get(message.linkId) !== message.seq) return;
      pendingFetch.delete(message.linkId);
      const ui = linkUi.get(message.linkId);
      if (ui) ui.fetch.disabled = ui.open.disabled;
      announce(message.message);
      return;
    }
    case 'status':
      announce(message.message);
      return;
  }
}

channel.onMessage(receive);

post({ type: 'ready' });
