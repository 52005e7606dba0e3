// Variable names of an RFC 6570 URI template, for the form a templated HAL
// link gets in the details page. url-template (used by the core's expandLink)
// expands templates but does not list their variables, so this reads the
// expressions with the grammar of RFC 6570 §2.2–2.4; expansion itself stays
// with url-template.

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
