// A repository's settings choose the include glob, so `oe` translates it (VS Code's glob syntax) to an
// RE2 pattern, which matches in time linear in the path whatever the glob.
import type { RE2JS } from 're2js';
import type { Localize } from '../../common/localize';

/** The longest include glob read; a longer one is refused (a glob is a line, not a program). */
export const MAX_GLOB_LENGTH = 1000;
const MAX_GROUP_DEPTH = 10;

/** A compiled include glob: `matches(path)` with `/` between names, relative to the scanned folder. */
export interface IncludeGlob {
  matches(path: string): boolean;
}

function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('re2js') as typeof import('re2js')).RE2JS;
}

const SPECIAL = /[\\^$.|?*+()[\]{}]/g;

export function globSource(glob: string, t: Localize): { readonly source: string } | { readonly problem: string } {
  if (glob.length > MAX_GLOB_LENGTH) return { problem: t('it is longer than {0} characters', MAX_GLOB_LENGTH) };
  let out = '';
  let depth = 0;
  let i = 0;
  while (i < glob.length) {
    const char = glob.charAt(i);
    if (char === '*' && glob.charAt(i + 1) === '*') {
      const atStart = i === 0 || glob.charAt(i - 1) === '/';
      let end = i + 2;
      while (glob.charAt(end) === '*') end++;
      if (atStart && glob.charAt(end) === '/') {
        out += '(?:[^/]*/)*';
        i = end + 1;
      } else {
        out += '.*';
        i = end;
      }
    } else if (char === '*') {
      out += '[^/]*';
      i++;
    } else if (char === '?') {
      out += '[^/]';
      i++;
    } else if (char === '{') {
      depth++;
      if (depth > MAX_GROUP_DEPTH) return { problem: t('its brace groups are nested deeper than {0}', MAX_GROUP_DEPTH) };
      out += '(?:';
      i++;
    } else if (char === '}' && depth > 0) {
      depth--;
      out += ')';
      i++;
    } else if (char === ',' && depth > 0) {
      out += '|';
      i++;
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        i++;
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      // Inside a class only a backslash, a caret and a bracket mean something to RE2: each is taken literally.
      const literal = body.replace(/[\\^[\]]/g, (c) => `\\${c}`);
      out += negated ? `[^/${literal}]` : `[${literal}]`;
      i = close + 1;
    } else {
      out += char.replace(SPECIAL, (c) => `\\${c}`);
      i++;
    }
  }
  if (depth > 0) return { problem: t('a brace group is not closed') };
  return { source: out };
}

export function compileIncludeGlob(glob: string, t: Localize): IncludeGlob | { readonly problem: string } {
  const translated = globSource(glob, t);
  if ('problem' in translated) return translated;
  const engine = re2();
  let re: RE2JS;
  try {
    re = engine.compile(translated.source, engine.DOTALL);
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  return { matches: (path) => re.matches(path) };
}
