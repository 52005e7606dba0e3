// `oe test-connection`: the extension's Test Connection, stage by stage, over
// the network path oe itself takes, as text for a terminal. Without
// credentials the network stages still run: a proxy can be tested before sign-in.
import { plainReportStyle, renderConnectionReport } from '../../core/client/connectionReport';
import { runConnectionCheck } from '../../core/client/connectionCheck';
import { EXIT, type CliCommand } from '../cliCommand';
import { serialArgument, stringOption } from '../cliArgs';
import { styler } from '../cliIo';
import { jsonWriter } from '../jsonOutput';
import { plainLocalize } from '../../core/common/localize';
import { debugLog, httpSettingsOf, SESSION_OPTIONS } from '../cliSession';
import { OE_WORDING } from '../remedies';
import { definedOnly } from '../../core/common/definedOnly';

/** Replaced by the bundler with package.json's version. */
declare const OE_VERSION: string | undefined;

export const command: CliCommand = {
  name: 'test-connection',
  summary: (t) => t('check the way to the API step by step, as Test Connection in VS Code does'),
  usage: (t) =>
    t(`Usage: oe test-connection [--serial SERIAL] [--json [FIELDS]] [--jq EXPR]

Checks the way to the API and to the authorization server one step at a time (proxy, name resolution, connection, proxy tunnel, TLS and the certificate, then the token and events requests) and prints the report Test Connection writes in VS Code. Without credentials the network steps still run. No secret is part of the report.

Options:
  --serial SERIAL  the machine the events request asks for (a made-up serial number by default)
  --json [FIELDS]  the report as JSON, in English whatever the language (docs/schemas/oe-test-connection.schema.json); FIELDS, comma-separated, keeps only those: ok, unclear, environment, apiBaseUrl, authUrl, startedAt, facts, stages, headline, advice
  --jq EXPR        filter that JSON through jq, as gh --jq does: a string is written as text, any other value as JSON, one per line
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                   sign-in and network (see oe --help)

Exit codes:
  0   the connection works
  1   the connection fails, or the answers cannot tell whether it works (the report says at which step and what to do)
  64  bad input: unknown option, a missing or invalid URL, a secret given as an option, an unknown --json field, a --jq expression jq refuses (with its message)
`),
  examples: [
    { line: 'oe test-connection', says: (t) => t('check the way to the API with the OE_* variables set') },
    {
      line: 'oe test-connection --serial MX-4711-A0023 --ca-file company-ca.pem',
      says: (t) => t("the same with one machine's events, trusting the company's certificate authority"),
    },
  ],
  options: { ...SESSION_OPTIONS, serial: { type: 'string' } },
  json: {
    schemaVersion: 1,
    fields: ['ok', 'unclear', 'environment', 'apiBaseUrl', 'authUrl', 'startedAt', 'facts', 'stages', 'headline', 'advice'],
  },
  async run(args, io, context) {
    const { t } = io;
    const endpoints = context.endpoints();
    const serial = stringOption(args, 'serial');
    const serialNumber = serial === undefined ? undefined : serialArgument(serial, t);
    const credentials = await context.credentialsIfAny();
    const report = await runConnectionCheck({
      // The JSON is data, in English whatever LANG is; the report for a person is in the user's language.
      t: args.json === undefined ? t : plainLocalize,
      wording: OE_WORDING,
      environment: new URL(endpoints.apiBaseUrl).host,
      ...endpoints,
      ...definedOnly({ serialNumber, credentials: credentials === undefined ? undefined : () => Promise.resolve(credentials) }),
      http: httpSettingsOf(args, io, context.settings),
      signal: context.signal,
      facts: [['oe', typeof OE_VERSION === 'string' ? OE_VERSION : '0.0.0']],
      ...(args.values['debug'] === true ? debugLog(io, credentials) : {}),
    });
    if (args.json !== undefined) {
      const json = jsonWriter(io, args.json, context.signal);
      const { verdict, facts, stages, ...where } = report;
      // The plain lines the terminal shows: the report's values come in Markdown code spans.
      const plain = plainReportStyle();
      const line = (text: string): string => plain.line(text);
      json.document({
        ok: verdict.ok,
        unclear: verdict.unclear === true,
        ...where,
        facts: facts.map(([name, value]) => ({ name, value })),
        stages: stages.map(({ title, summary, details, ...stage }) => ({
          durationMs: null,
          ...stage,
          title: line(title),
          summary: line(summary),
          details: details.map(line),
        })),
        headline: line(verdict.headline),
        advice: line(verdict.advice),
      });
      await json.end();
      return report.verdict.ok ? EXIT.ok : EXIT.no;
    }
    const style = styler(io.color);
    io.stdout(
      renderConnectionReport(
        report,
        t,
        plainReportStyle((text) => style.bold(text)),
      ),
    );
    return report.verdict.ok ? EXIT.ok : EXIT.no;
  },
};
