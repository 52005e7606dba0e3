// `oe test-connection`: the extension's Test Connection, stage by stage, over
// the network path oe itself takes, as text for a terminal. Without
// credentials the network stages still run: a proxy can be tested before sign-in.
import { plainReportStyle, renderConnectionReport } from '../../core/client/connectionReport';
import { runConnectionCheck } from '../../core/client/connectionCheck';
import { EXIT, type CliCommand } from '../cliCommand';
import { serialArgument, stringOption } from '../cliArgs';
import { styler } from '../cliIo';
import { credentialsIfAny, debugLog, endpointsOf, httpSettingsOf, SESSION_OPTIONS } from '../cliSession';
import { OE_WORDING } from '../remedies';
import { definedOnly } from '../../core/common/definedOnly';

/** Replaced by the bundler with package.json's version. */
declare const OE_VERSION: string | undefined;

export const command: CliCommand = {
  name: 'test-connection',
  summary: (t) => t('check the way to the API step by step, as Test Connection in VS Code does'),
  usage: (t) =>
    t(`Usage: oe test-connection [--serial SERIAL]

Checks the way to the API and to the authorization server one step at a time (proxy, name resolution, connection, proxy tunnel, TLS and the certificate, then the token and events requests) and prints the report Test Connection writes in VS Code. Without credentials the network steps still run. No secret is part of the report.

Options:
  --serial SERIAL  the machine the events request asks for (a made-up serial number by default)
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                   sign-in and network (see oe --help)

Exit codes:
  0   the connection works
  1   the connection fails, or the answers cannot tell whether it works (the report says at which step and what to do)
  64  bad input: unknown option, a missing or invalid URL, a secret given as an option
`),
  examples: [
    { line: 'oe test-connection', says: (t) => t('check the way to the API with the OE_* variables set') },
    {
      line: 'oe test-connection --serial MX-4711-A0023 --ca-file company-ca.pem',
      says: (t) => t("the same with one machine's events, trusting the company's certificate authority"),
    },
  ],
  options: { ...SESSION_OPTIONS, serial: { type: 'string' } },
  async run(args, io, context) {
    const { t } = io;
    const endpoints = endpointsOf(args, io);
    const serial = stringOption(args, 'serial');
    const serialNumber = serial === undefined ? undefined : serialArgument(serial, t);
    const credentials = await credentialsIfAny(args, io);
    const report = await runConnectionCheck({
      t,
      wording: OE_WORDING,
      environment: new URL(endpoints.apiBaseUrl).host,
      ...endpoints,
      ...definedOnly({ serialNumber, credentials: credentials === undefined ? undefined : () => Promise.resolve(credentials) }),
      http: httpSettingsOf(args, io, context.settings),
      signal: context.signal,
      facts: [['oe', typeof OE_VERSION === 'string' ? OE_VERSION : '0.0.0']],
      ...(args.values['debug'] === true ? debugLog(io, credentials) : {}),
    });
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
