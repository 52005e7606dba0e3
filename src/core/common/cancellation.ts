// VS Code hands providers a CancellationToken; our HTTP stack takes an
// AbortSignal. Bridging them is what makes a hover that goes away cancel its
// request. Pure (typed against the token's shape, no vscode import).

/** The part of vscode.CancellationToken the bridge needs. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/** An AbortSignal that aborts when `token` is cancelled; dispose it when the work is done. */
export function abortSignalFor(token: CancellationTokenLike): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
    return { signal: controller.signal, dispose: () => undefined };
  }
  const listener = token.onCancellationRequested(() => {
    controller.abort();
  });
  return {
    signal: controller.signal,
    dispose: () => {
      listener.dispose();
    },
  };
}
