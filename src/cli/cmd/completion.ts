// `oe completion bash|zsh|fish`: a script that asks oe itself at each Tab
// (`oe __complete WORD…`, as cobra's programs do), so a new command, option or
// environment completes without a new script. Serial numbers come from the
// working folder's files, found by `oe check`'s scan, within a small budget.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readNamedFileSync } from '../../core/common/namedFiles';
import { serialMatcherOf } from '../../core/domain/serialNumbers/settingsMatcher';
import { compileIncludeGlob } from '../../core/domain/workspaceScan/includeGlob';
import { MAX_SCANNED_FILE_BYTES, SerialCollector } from '../../core/domain/workspaceScan/workspaceSerials';
import { EXIT, UsageError, type CliCommand, type CliIo, type CliOptions } from '../cliCommand';
import { settingsOfFolder } from '../cliSession';
import { filesOf } from './check';

/** The hidden command the scripts call: the words after `oe`, the last one the word being completed. */
export const COMPLETE = '__complete';

/** A Tab must answer at once: the scan reads at most this many files, for at most this long, this many bytes. */
const SCAN_FILES = 300;
const SCAN_MS = 400;
const SCAN_BYTES = 16 * 1024 * 1024;
/** The most candidates one Tab offers. */
const MAX_CANDIDATES = 500;
/** The largest config file read for environment names. */
const MAX_CONFIG_BYTES = 256 * 1024;

const SHELLS = ['bash', 'zsh', 'fish'] as const;

const SCRIPTS: Readonly<Record<(typeof SHELLS)[number], string>> = {
  bash: `# oe completion for bash. In ~/.bashrc:  source <(oe completion bash)
_oe_complete() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do
    [[ -n $line ]] && COMPREPLY+=("$line")
  done < <(oe ${COMPLETE} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
# Nothing of oe's to offer: file names, as without completion.
complete -o default -F _oe_complete oe
`,
  zsh: `#compdef oe
# oe completion for zsh. In ~/.zshrc:  source <(oe completion zsh)
_oe() {
  local -a candidates
  local line
  for line in "\${(@f)$(oe ${COMPLETE} "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] && candidates+=("$line")
  done
  if (( \${#candidates} )); then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
(( $+functions[compdef] )) || { autoload -Uz compinit && compinit -i; }
compdef _oe oe
`,
  fish: `# oe completion for fish:  oe completion fish > ~/.config/fish/completions/oe.fish
function __oe_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l found (oe ${COMPLETE} $words[2..-1] "$current" 2>/dev/null)
    if test (count $found) -gt 0
        printf '%s\\n' $found
    else
        __fish_complete_path "$current"
    end
end
complete -c oe -f -a '(__oe_complete)'
`,
};

/** `oe completion SHELL`: the script; what it completes is `completeWords`'s answer, from root.ts's command list. */
export const command: CliCommand = {
  name: 'completion',
  summary: (t) => t('a completion script for bash, zsh or fish'),
  usage: (t) =>
    t(`Usage: oe completion bash|zsh|fish

Prints a script that completes oe's commands, their options, environment names and serial numbers (from the files of the current folder) when Tab is pressed. Load it once per shell:
  bash  add to ~/.bashrc:  source <(oe completion bash)
  zsh   add to ~/.zshrc:   source <(oe completion zsh)
  fish  run once:          oe completion fish > ~/.config/fish/completions/oe.fish

Exit codes:
  0   the script was printed
  64  bad input: no shell, or one other than bash, zsh and fish
`),
  options: {},
  operands: { words: SHELLS },
  examples: [
    { line: 'oe completion bash > ~/.local/share/bash-completion/completions/oe', says: (t) => t('complete oe in every new bash') },
    { line: 'oe completion fish > ~/.config/fish/completions/oe.fish', says: (t) => t('complete oe in every new fish') },
  ],
  run(args, io) {
    const shell = SHELLS.find((name) => name === args.positionals[0]);
    if (shell === undefined || args.positionals.length !== 1) throw new UsageError(io.t('Name one shell: bash, zsh or fish.'));
    io.stdout(SCRIPTS[shell]);
    return Promise.resolve(EXIT.ok);
  },
};

/** The options whose value names an environment or a machine; the rest complete file names (the shell's default). */
const VALUE_KINDS: Readonly<Record<string, 'environment' | 'serial-number'>> = { env: 'environment', serial: 'serial-number' };

/**
 * The answer to `oe __complete WORD…`: the candidates for the last word, one a line; nothing when oe has none
 * (the script then completes file names). Never an error: a Tab that fails must not print into the command line.
 */
export async function completeWords(
  words: readonly string[],
  io: CliIo,
  commands: readonly CliCommand[],
  optionsOf: (command: CliCommand) => CliOptions,
): Promise<string> {
  const current = words.at(-1) ?? '';
  let found: readonly string[];
  try {
    found = await candidates(words.slice(0, -1), current, io, commands, optionsOf);
  } catch {
    found = [];
  }
  const lower = current.toLowerCase();
  const shown = [...new Set(found)].filter((word) => word.toLowerCase().startsWith(lower)).slice(0, MAX_CANDIDATES);
  return shown.map((word) => `${word}\n`).join('');
}

async function candidates(
  before: readonly string[],
  current: string,
  io: CliIo,
  commands: readonly CliCommand[],
  optionsOf: (command: CliCommand) => CliOptions,
): Promise<readonly string[]> {
  const [first] = before;
  if (first === undefined) return current.startsWith('-') ? ['--help', '--version'] : [...commands.map((c) => c.name), 'help'];
  if (first === 'help') return before.length === 1 ? commands.map((c) => c.name) : [];
  const command = commands.find((candidate) => candidate.name === first);
  if (command === undefined) return [];
  const options = optionsOf(command);
  const operandsOnly = before.includes('--');
  const previous = before.at(-1) ?? '';
  const named = previous.startsWith('--') ? previous.slice(2) : '';
  const kind = VALUE_KINDS[named];
  if (!operandsOnly && (kind !== undefined || options[named]?.type === 'string')) {
    return kind === 'environment' ? environmentNames(io) : kind === 'serial-number' ? await serialNumbersHere(io) : [];
  }
  if (current.startsWith('-') && !operandsOnly) return Object.keys(options).map((name) => `--${name}`);
  const { operands } = command;
  if (operands === 'serial-numbers') return serialNumbersHere(io);
  if (operands === undefined || operands === 'paths') return [];
  return operands.words;
}

/** The serial numbers in the working folder's files, found as `oe check .` finds them, within the budget above. */
async function serialNumbersHere(io: CliIo): Promise<string[]> {
  const settings = settingsOfFolder(io.cwd, io.cwd, () => undefined, io.t);
  const included = compileIncludeGlob(settings['workspaceScan.include'], io.t);
  if ('problem' in included) return [];
  const deadline = Date.now() + SCAN_MS;
  let files: string[];
  try {
    files = await filesOf(
      io.cwd,
      included,
      Math.min(SCAN_FILES, settings['workspaceScan.maxFiles']),
      () => undefined,
      io,
      AbortSignal.timeout(SCAN_MS),
    );
  } catch {
    // The walk ran out of time (or met a folder it cannot read): no serial numbers rather than a Tab that hangs.
    return [];
  }
  const collector = new SerialCollector(serialMatcherOf(settings, io.t));
  let bytes = 0;
  for (const file of files) {
    if (Date.now() > deadline || bytes > SCAN_BYTES) break;
    try {
      const text = readNamedFileSync(file, { maxBytes: MAX_SCANNED_FILE_BYTES, within: io.cwd }).toString('utf8');
      bytes += text.length;
      collector.add(file, text);
    } catch {
      // A file that cannot be read offers nothing; `oe check` is where it is reported.
    }
  }
  return collector.result().map((found) => found.serialNumber);
}

/** The names of the environments in oe's config file ($XDG_CONFIG_HOME/oe/config.json); none when it is absent or unreadable. */
function environmentNames(io: CliIo): string[] {
  const configHome = io.env['XDG_CONFIG_HOME'] || join(io.env['HOME'] ?? homedir(), '.config');
  let config: unknown;
  try {
    config = JSON.parse(
      readNamedFileSync(join(configHome, 'oe', 'config.json'), { maxBytes: MAX_CONFIG_BYTES, ownedByUs: true }).toString('utf8'),
    );
  } catch {
    return [];
  }
  const environments = (config as { environments?: unknown } | null)?.environments;
  const names = Array.isArray(environments)
    ? environments.map((entry) => (entry as { name?: unknown } | null)?.name)
    : typeof environments === 'object' && environments !== null
      ? Object.keys(environments)
      : [];
  // A name is one word of a command line: no control character, bounded.
  return names.filter((name): name is string => typeof name === 'string' && /^[^\p{Cc}]{1,100}$/u.test(name));
}
