// dist/jqWorker.js: the --jq engine in a worker thread (see JqWorker in jsonOutput.ts), so a jq expression that
// never ends can be stopped. It answers each { input, filter } with jq's stdout, stderr and exit code.
import { parentPort } from 'node:worker_threads';
import { raw } from 'jq-wasm/inline';

parentPort?.on('message', ({ input, filter }: { input: string; filter: string }) => {
  // -c: one result per line, which the main thread writes as gh and jq -r do.
  raw(input, filter, ['-c']).then(
    (answer) => parentPort?.postMessage(answer),
    (error: unknown) => parentPort?.postMessage({ stdout: '', stderr: String(error), exitCode: 70 }),
  );
});
