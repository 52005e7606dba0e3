// Both webview pages build their DOM with these: createElement and textContent only, as pages show
// server data that must never be parsed as HTML.

interface VsCodeApi<M> {
  postMessage(message: M): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi<M>(): VsCodeApi<M>;

/** The page's side of its channel: post typed messages, keep state, take only messages that pass the protocol's guard. */
export interface PageChannel<Out, In> {
  readonly post: (message: Out) => void;
  readonly savedState: unknown;
  readonly setState: (state: unknown) => void;
  readonly onMessage: (receive: (message: In) => void) => void;
}

/** Once per page: VS Code hands its API out once. */
export function pageChannel<Out, In>(isHostMessage: (message: unknown) => message is In): PageChannel<Out, In> {
  const vscode = acquireVsCodeApi<Out>();
  return {
    post: (message) => {
      vscode.postMessage(message);
    },
    savedState: vscode.getState(),
    setState: (state) => {
      vscode.setState(state);
    },
    onMessage: (receive) => {
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        // Anything that is not exactly one of our messages is dropped unread.
        if (isHostMessage(event.data)) receive(event.data);
      });
    },
  };
}

export type Attrs = Readonly<Record<string, string>>;

/** The only way a page creates content: text nodes, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
  attrs: Attrs = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

export function icon(name: string, className = ''): HTMLSpanElement {
  return el('span', `codicon codicon-${name} ${className}`.trim(), undefined, { 'aria-hidden': 'true' });
}

export interface ButtonOptions {
  /** The accessible name when it says more than the label (an icon-only button's defaults to the label). */
  readonly aria?: string;
  readonly iconOnly?: boolean;
  /** The page's class for it: 'secondary' (with a label) and 'icon-button' (icon only) by default. */
  readonly className?: string;
}

export function button(label: string, iconName: string, onClick: () => void, options: ButtonOptions = {}): HTMLButtonElement {
  const b = el('button', options.className ?? (options.iconOnly ? 'icon-button' : 'secondary'), undefined, { type: 'button' });
  b.append(icon(iconName));
  if (options.iconOnly) {
    b.setAttribute('aria-label', options.aria ?? label);
    b.title = label;
  } else {
    b.append(el('span', undefined, label));
    if (options.aria !== undefined) b.setAttribute('aria-label', options.aria);
  }
  b.addEventListener('click', onClick);
  return b;
}

export function announce(message: string): void {
  const status = document.getElementById('status');
  if (!status) return;
  // Cleared first so the same message twice is read out twice.
  status.textContent = '';
  setTimeout(() => (status.textContent = message), 50);
}
