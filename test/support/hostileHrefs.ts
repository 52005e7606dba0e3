// Link targets a hostile or confused server may put in `_links` (spec §2.4),
// for the property tests of link expansion, the details page's link policy
// and the client's fetchLink: other origins that look like ours, schemes
// that must never open, relative forms, templates, and arbitrary text.
import { fc } from './properties';

export const API_ORIGIN = 'https://api.example.test';

const lookalikeHosts = [
  'https://api.example.test.evil.test/x',
  'https://api.example.test:8443/x',
  'http://api.example.test/x',
  'https://api.example.test@evil.test/x',
  'https://evil.test/api.example.test',
  'HTTPS://API.EXAMPLE.TEST/public/api/machines/1',
  '//evil.test/x',
  '\\\\evil.test\\x',
  '/\\evil.test/x',
  'https:evil.test/x',
  ' https://evil.test/x',
  'https://evil.test%2F@api.example.test/x',
];

const badSchemes = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'command:workbench.action.quit',
  'file:///etc/passwd',
  'data:text/html,<b>x</b>',
  'vscode://x',
  'ftp://api.example.test/x',
  'http://',
  'https:///x',
];

const relative = ['/public/api/machines/1', 'machines/1', '../../x', '?page=2', '#frag', '', '.', 'public/api/machines{?serialNumber}'];

const templates = [
  '{+target}',
  '{target}',
  `${API_ORIGIN}/m/{id}`,
  `${API_ORIGIN}{+path}`,
  '/m/{id}{?q}',
  '{/segments*}',
  'https://{host}/x',
  '{#frag}',
  '{',
];

/** One href: mostly the shapes above, sometimes arbitrary text or a well-formed URL. */
export const hostileHref = fc.oneof(
  fc.constantFrom(...lookalikeHosts, ...badSchemes, ...relative, ...templates),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string(),
  fc.tuple(fc.constantFrom('https://', 'http://', '//', '/', ''), fc.string()).map(([prefix, rest]) => prefix + rest),
);

/** Values for template variables, including ones that try to leave the path. */
export const variableValue = fc.oneof(
  fc.constantFrom('@evil.test', '//evil.test', 'https://evil.test', '../..', '%2F', '?x=1#y', 'a b', '\u202e', 'evil.test'),
  fc.string(),
);

export const variables = fc.dictionary(
  fc.constantFrom('target', 'id', 'path', 'q', 'segments', 'host', 'frag', 'serialNumber'),
  variableValue,
  { maxKeys: 4 },
);
