// dist/oe.js: the `oe` command. This file owns the process: its streams,
// signals and exit code; cmd/root.ts runs the command. It is a bundle of its
// own, a few kilobytes: `oe --version` and `oe --help` are answered from the
// texts the build took from the program itself (esbuild.mjs), and only any
// other run loads the program (oeProgram.ts, dist/oeProgram.js).
import { languageOf } from './cliLanguage';

/** Filled in by the build: stdout of `oe ARG` per language, for the arguments answered without the program. */
declare const OE_PREPARED_ANSWERS: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;

// Required, not imported: what only a run of the program needs is not loaded for a prepared answer.
/* eslint-disable @typescript-eslint/no-require-imports */
const program = (): typeof import('./oeProgram') => require('./oeProgram') as typeof import('./oeProgram');

function main(): void {
  const argv = process.argv.slice(2);
  const prepared =
    typeof OE_PREPARED_ANSWERS === 'object' && argv.length === 1
      ? OE_PREPARED_ANSWERS[argv[0] ?? '']?.[languageOf(process.env)]
      : undefined;
  if (prepared !== undefined) {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      program().onOutputError(error);
    });
    process.stdout.write(prepared);
    return;
  }
  // Node 22.1+ keeps the compiled program on disk for the next run; older Nodes lack it and compile each time.
  (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // undici parses HTTP in WebAssembly: its baseline code is quick enough for oe's few responses, and a process
  // that would otherwise stay after its output until V8's optimising compiler is done ends at once.
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
  // A signal while the program loads is held for its handlers, not left to kill oe without its exit code.
  const hold = (): void => undefined;
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  program().runProgram(argv);
  process.off('SIGINT', hold);
  process.off('SIGTERM', hold);
}
/* eslint-enable @typescript-eslint/no-require-imports */

main();
