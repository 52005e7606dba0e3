// Spec §4.1 declares the response content type as */*, so JSON is recognised
// by parsing the body, not by trusting Content-Type. When it is not JSON we
// say what it looks like: an HTML page almost always means a sign-in page of a
// proxy or SSO gateway answered instead of the API. Values nested deeper than
// MAX_JSON_DEPTH are pruned (src/core/common/jsonDepth.ts).

import { pruneDeepJson } from '../common/jsonDepth';
import type { LocalizedText } from '../common/localize';

export type JsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: LocalizedText };

export function parseJsonBody(body: Uint8Array, contentType: string | undefined, source: LocalizedText): JsonBody {
  // The decoder keeps the byte-order mark (ignoreBOM) so that one place, here, removes it.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body).replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed === '') return { ok: false, problem: (t) => t('{0} answered with an empty body where JSON was expected.', source(t)) };
  try {
    // Pruned here, at the edge: nothing downstream meets a nesting depth it cannot render.
    return { ok: true, value: pruneDeepJson(JSON.parse(text) as unknown) };
  } catch {
    if (trimmed.startsWith('<') || contentType?.toLowerCase().includes('html') === true) {
      return {
        ok: false,
        problem: (t) =>
          t(
            '{0} answered with an HTML page instead of JSON; a sign-in page of a proxy or single sign-on gateway often does this.',
            source(t),
          ),
      };
    }
    return { ok: false, problem: (t) => t('{0} answered with a body that is not valid JSON.', source(t)) };
  }
}
