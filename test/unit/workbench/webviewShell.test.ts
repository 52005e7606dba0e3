import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, escapeHtml, renderShell } from '../../../src/extension/workbench/webviewShell';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe('details: HTML shell', () => {
  const shell = renderShell({
    cspSource: 'https://webview.test',
    nonce: 'abc123+/AB',
    scriptUri: 'https://webview.test/media/details/details.js',
    styleUri: 'https://webview.test/media/details/details.css',
    codiconsUri: 'https://webview.test/media/codicons/codicon.css',
    title: `${HOSTILE} · "MX" & 'co'`,
    loading: 'Loading…',
    lang: 'en',
  });

  it('escapes the five HTML-significant characters', () => {
    assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('escapes a hostile title instead of embedding markup', () => {
    assert.equal(shell.includes(HOSTILE), false);
    assert.ok(shell.includes('&lt;img src=x onerror=alert(1)&gt; · &quot;MX&quot; &amp; &#39;co&#39;'));
  });

  it('allows scripts only by nonce and styles, fonts and images only from the webview source', () => {
    const csp = contentSecurityPolicy('https://webview.test', 'N');
    assert.equal(
      csp,
      "default-src 'none'; style-src https://webview.test; font-src https://webview.test; img-src https://webview.test; script-src 'nonce-N'",
    );
    assert.ok(shell.includes(`content="${escapeHtml(contentSecurityPolicy('https://webview.test', 'abc123+/AB'))}"`));
    assert.doesNotMatch(shell, /unsafe-inline|unsafe-eval/);
  });

  it('has exactly one script, carrying the nonce, and no inline script or style', () => {
    assert.equal(shell.match(/<script/g)?.length, 1);
    assert.match(shell, /<script nonce="abc123\+\/AB" src="https:\/\/webview\.test\/media\/details\/details\.js"><\/script>/);
    assert.doesNotMatch(shell, /<style|style=/);
  });
});
