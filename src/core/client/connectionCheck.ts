// Test Connection: the way to the API and the authorization server one stage at a time (proxy,
// name resolution, TCP, CONNECT, TLS and who vouches), then the client's own token and events
// calls; node:dns/net/tls because undici hides what a report must show. The first failure decides
// the verdict, worded by the program that runs the check. No secret enters the report.

import type { Localize } from '../common/localize';
import type { CredentialsProvider } from './auth/tokenClient';
import { cancelledError } from './errors';
import { networkPathFor } from './http/networkPath';
import type { ConnectionReport, Verdict } from './connectionReport';
import { checkRequests, eventsTitle, tokenTitle, type RequestsInput } from './connectionRequests';
import { proxyStage, routeFor, type TargetRole } from './connectionRoute';
import { checkPath } from './connectionSockets';
import { Check, CHECK_LIMITS, parseUrl, shownUrl, type CheckLimits, type ProgramWording } from './connectionStages';

export type { CheckAdvice, ProgramWording } from './connectionStages';
import type { HttpSettings } from './onboardingClient';

export interface ConnectionCheckInput extends RequestsInput {
  /** Words every stage and verdict: the user reads the report (vscode.l10n.t), a test may pass plainLocalize. */
  readonly t: Localize;
  /** The program's remedies: what the user does there (a command in VS Code, a variable in a terminal). */
  readonly wording: ProgramWording;
  readonly environment: string;
  /** Absent when nothing is stored for the environment: the token and events stages are then skipped. */
  readonly credentials?: CredentialsProvider;
  /** The client's network settings (proxy, trust, lookup, env), as the session's clients get them. */
  readonly http?: HttpSettings;
  /** About the host (extension and VS Code versions); the check adds Node.js and the platform. */
  readonly facts?: readonly (readonly [string, string])[];
  readonly now?: () => Date;
  /** Shorter deadlines (longer ones are capped at CHECK_LIMITS). */
  readonly limits?: Partial<CheckLimits>;
}

/** Runs every stage (each bounded) and returns the report; throws only when `signal` cancels it. */
export async function runConnectionCheck(input: ConnectionCheckInput): Promise<ConnectionReport> {
  const startedAt = (input.now ?? (() => new Date()))();
  const http = input.http ?? {};
  const env = http.env ?? process.env;
  const limits = { ...CHECK_LIMITS, ...input.limits };
  const { t } = input;
  const check = new Check(t, input.wording, input.signal, {
    lookupMs: Math.min(limits.lookupMs, CHECK_LIMITS.lookupMs),
    connectMs: Math.min(limits.connectMs, CHECK_LIMITS.connectMs),
    proxyAnswerMs: Math.min(limits.proxyAnswerMs, CHECK_LIMITS.proxyAnswerMs),
    tlsMs: Math.min(limits.tlsMs, CHECK_LIMITS.tlsMs),
    requestMs: Math.min(limits.requestMs, CHECK_LIMITS.requestMs),
  });
  const facts: (readonly [string, string])[] = [
    ...(input.facts ?? []),
    ['Node.js', process.versions.node],
    [t('Platform'), `${process.platform} ${process.arch}`],
  ];
  const report = (verdict: Verdict): ConnectionReport => ({
    environment: input.environment,
    apiBaseUrl: shownUrl(input.apiBaseUrl, t),
    authUrl: shownUrl(input.authUrl, t),
    startedAt: startedAt.toISOString(),
    facts,
    stages: check.stages,
    verdict,
  });

  const api = parseUrl(input.apiBaseUrl);
  const auth = parseUrl(input.authUrl);
  if (api === undefined || auth === undefined) {
    return report({
      ok: false,
      headline: t('The API base URL or the authorization URL is not a valid URL.'),
      advice: input.wording.checkAdvice('fix-urls', t),
    });
  }
  // One path per origin: an API and token endpoint on the same host share a proxy, a name and a certificate.
  const targets: { role: TargetRole; url: URL }[] =
    api.origin === auth.origin
      ? [{ role: 'both', url: api }]
      : [
          { role: 'api', url: api },
          { role: 'auth', url: auth },
        ];
  const routes = targets.map((target) => ({
    ...target,
    route: routeFor(target.url, http, env),
    // The same answer the client's transport acts on: which engine carries this target's requests.
    path: networkPathFor(target.url, { ...http, engine: http.engine ?? 'undici', env }),
  }));
  for (const { role, url, route, path } of routes)
    check.record(proxyStage(role, url, route, path, http, t, input.wording.names.proxySetting));
  for (const { url, route, path } of routes) {
    if (check.failed) break;
    await checkPath(check, url, route, path.engine, http, env);
  }

  // On VS Code's stack a system proxy or PAC file we cannot see may reach what the direct stages
  // could not: the client's own requests then still decide whether the extension works.
  const directVerdict = check.verdict;
  const vscodeMayReach = directVerdict !== undefined && routes.some(({ path }) => path.engine === 'vscode');
  if (vscodeMayReach && input.credentials !== undefined && input.signal?.aborted !== true) {
    check.verdict = undefined;
    await checkRequests(check, input, input.credentials, http, env);
    check.verdict ??= {
      ok: true,
      headline: t("VS Code's network path reaches the API; the direct way tested above does not."),
      advice: t(
        "The extension's requests take VS Code's network stack (its proxy settings, the system proxy or a PAC file, Kerberos proxy authentication and its credentials dialog), so they work. The failed steps above show the direct way, which only tools that do not use VS Code's network stack take.",
      ),
    };
  } else if (check.failed) {
    check.skip(tokenTitle(input.authUrl, t), t('an earlier step failed'));
    check.skip(eventsTitle(input.apiBaseUrl, input.serialNumber, t), t('an earlier step failed'));
  } else if (input.credentials === undefined) {
    check.skip(tokenTitle(input.authUrl, t), t('no credentials are stored for this environment (sign in first)'));
    check.skip(eventsTitle(input.apiBaseUrl, input.serialNumber, t), t('needs a token'));
  } else {
    await checkRequests(check, input, input.credentials, http, env);
  }
  if (input.signal?.aborted === true) throw cancelledError();

  return report(
    check.verdict ??
      (input.credentials === undefined
        ? {
            ok: true,
            headline: t('The network path works; the sign-in was not tested.'),
            advice: input.wording.checkAdvice('sign-in-then-test', t),
          }
        : {
            ok: true,
            headline: t('Everything works: the authorization server issued a token and the API answered.'),
            advice: input.wording.checkAdvice('report-with-log', t),
          }),
  );
}
