// Pure: the board page's HTML shell, with the same policy as the details
// page (default-src 'none', styles and fonts from our media folder only, the
// one script by nonce). It carries no server data but the escaped title; the
// rows arrive by postMessage after the page says "ready".

export interface BoardShellOptions {
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function boardContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function renderBoardShell(o: BoardShellOptions): string {
  const e = escapeHtml;
  return `<!DOCTYPE html>
<html lang="${e(o.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${e(boardContentSecurityPolicy(o.cspSource, o.nonce))}">
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
