// dist/oe.js: the `oe` command. This file owns the process: its streams,
// signals and exit code; cmd/root.ts runs the command.
import { errorMessage } from '../core/common/errors';
import { EXIT } from './cliCommand';
import { processIo } from './cliIo';
import { runCli } from './cmd/root';

function main(): void {
  const io = processIo();
  const abort = new AbortController();
  const interrupt = (name: NodeJS.Signals): void => {
    // A second signal ends at once, as in any tool.
    if (abort.signal.aborted) process.exit(name === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    abort.abort(name);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // A reader that went away (`oe events … | head`) is no error of ours; a full disk is: the data is lost.
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    io.stderr(`oe: ${io.t('Cannot write the output: {0}', error.code ?? errorMessage(error, io.t))}\n`);
    process.exit(EXIT.ioError);
  });
  runCli(process.argv.slice(2), io, abort.signal).then(
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

main();
