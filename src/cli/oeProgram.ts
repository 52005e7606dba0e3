// Everything of `oe` but its prepared answers: the second bundle (dist/oeProgram.js)
// main.ts requires for any run it cannot answer from its own few bytes. The
// process's streams, signals and exit code are handled here for that run.
import { errorMessage } from '../core/common/errors';
import { EXIT } from './cliCommand';
import { localizeFor, processIo } from './cliIo';
import { runCli } from './cmd/root';

/** A failed write to stdout: a reader that went away is no error of ours; a full disk is, the data is lost. */
export function onOutputError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  const t = localizeFor(process.env);
  process.stderr.write(`oe: ${t('Cannot write the output: {0}', error.code ?? errorMessage(error, t))}\n`);
  process.exit(EXIT.ioError);
}

/** Runs the command these arguments name, as the process. */
export function runProgram(argv: readonly string[]): void {
  const io = processIo();
  const abort = new AbortController();
  const interrupt = (name: NodeJS.Signals): void => {
    // A second signal ends at once, as in any tool.
    if (abort.signal.aborted) process.exit(name === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    abort.abort(name);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  process.stdout.on('error', onOutputError);
  runCli(argv, io, abort.signal).then(
    (code) => {
      // exitCode, not exit(): the output still being written to a pipe is not cut off.
      process.exitCode = code;
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    },
    (error: unknown) => {
      io.stderr(`oe: ${io.t('Unexpected error: {0}', errorMessage(error, io.t))}\n`);
      process.exitCode = EXIT.internal;
    },
  );
}
