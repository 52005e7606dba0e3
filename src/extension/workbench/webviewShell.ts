// Pure: the one HTML shell of our webviews (the event details and the board),
// so both carry the same policy: default-src 'none', styles, fonts and images
// from our media folder only, the one script by a fresh nonce. It carries no
// server data except the panel title, escaped; the data arrives by
// postMessage after the page says "ready", and the page builds its DOM with
// textContent.

export interface ShellOptions {
  /** webview.cspSource */
  readonly cspSource: string;
  /** From crypto, fresh for every HTML generation. */
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly codiconsUri: string;
  readonly title: string;
  readonly loading: string;
  readonly lang: string;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function renderShell(o: ShellOptions): string {
  const e = escapeHtml;
  return `<!DOCTYPE html>
<html lang="${e(o.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${e(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${e(o.codiconsUri)}">
<link rel="stylesheet" href="${e(o.styleUri)}">
<title>${e(o.title)}</title>
</head>
<body>
<main id="root" aria-busy="true"><p class="loading">${e(o.loading)}</p></main>
<div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
<script nonce="${e(o.nonce)}" src="${e(o.scriptUri)}"></script>
</body>
</html>`;
}
