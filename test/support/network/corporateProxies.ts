// The real parts of a corporate network, started by a test on 127.0.0.1: Squid
// with Basic proxy authentication, and mitmproxy's mitmdump as a
// TLS-inspecting proxy. Each runs from the Debian package's binary with its
// own configuration, logs, pid file and CA in a temporary folder (never the
// system service, never another address), resolves the test's host names to
// loopback by itself (Squid's hosts_file, an addon for mitmdump) and refuses
// every other name, so nothing a test does can leave the machine. Start-up
// waits and shutdowns are bounded: a busy 2-core machine must not hang a suite.

import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const SQUID = '/usr/sbin/squid';
/** Squid's Basic authentication helper, as the Debian squid package installs it. */
export const BASIC_NCSA_AUTH = '/usr/lib/squid/basic_ncsa_auth';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
/** Output kept from a proxy's console, for failure messages and mitmdump's flow lines. */
const OUTPUT_MAX = 256 * 1024;

function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What is missing of the corporate proxies' binaries (empty when both can run). */
export function missingProxyBinaries(): string[] {
  const missing: string[] = [];
  if (!executable(SQUID)) missing.push(`squid (${SQUID})`);
  if (!executable(BASIC_NCSA_AUTH)) missing.push(`squid's basic_ncsa_auth (${BASIC_NCSA_AUTH})`);
  if (onPath('mitmdump') === undefined) missing.push('mitmdump (the mitmproxy package)');
  if (onPath('openssl') === undefined) missing.push('openssl');
  return missing;
}

/**
 * Fails the suite, saying what to install, when a binary is missing: `npm test`
 * installs them before the first tier (scripts/vscode/provision.mjs), so a
 * missing one is a broken set-up, never a reason to skip.
 */
export function requireProxyBinaries(): void {
  const missing = missingProxyBinaries();
  if (missing.length === 0) return;
  throw new Error(
    `the corporate-proxy tests need ${missing.join(', ')}: run npm test, which installs them, or apt-get install squid mitmproxy openssl`,
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every 100 ms until it is true or `timeoutMs` passed; returns its last answer. */
export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await delay(100);
  }
  return true;
}

/** A proxy process with its console output kept (bounded) and a bounded stop. */
class ProxyProcess {
  private output = '';
  private exited = false;
  private readonly exit: Promise<void>;

  constructor(
    readonly label: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString('utf8')).slice(-OUTPUT_MAX);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exit = new Promise((resolve) => {
      child.once('exit', () => {
        this.exited = true;
        resolve();
      });
      child.once('error', (error) => {
        keep(Buffer.from(`\n${error.message}`));
        this.exited = true;
        resolve();
      });
    });
  }

  get console(): string {
    return this.output;
  }

  /** Resolves once the port accepts connections; rejects with the console's end if the process died or the wait ran out. */
  async listening(port: number): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`${this.label} exited at start-up:\n${this.output.slice(-2_000)}`);
      if (await accepts(port)) return;
      await delay(150);
    }
    throw new Error(`${this.label} did not listen on 127.0.0.1:${port} within ${START_TIMEOUT_MS} ms:\n${this.output.slice(-2_000)}`);
  }

  /** SIGTERM, then SIGKILL if it has not exited within the bound. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGTERM');
    await Promise.race([this.exit, delay(STOP_TIMEOUT_MS)]);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await Promise.race([this.exit, delay(STOP_TIMEOUT_MS)]);
    }
  }
}

function uidOf(user: string): number | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${user}:`));
  const uid = line === undefined ? undefined : Number(line.split(':')[2]);
  return uid === undefined || Number.isNaN(uid) ? undefined : uid;
}

export interface SquidOptions {
  /** Names Squid resolves (through its hosts_file) to a 127.x address; the only names it lets through. */
  readonly hosts: Readonly<Record<string, string>>;
  readonly user: string;
  readonly password: string;
  /**
   * An `https://` proxy: clients use TLS to Squid itself (https_port), with this certificate and
   * key. Debian's squid package (the GnuTLS build) serves it; no squid-openssl needed.
   */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
}

export interface Squid {
  readonly port: number;
  /** `http://user:password@host:port` (`https://` with `tls`), encoded; host 127.0.0.1 unless given. */
  urlWithCredentials(user: string, password: string, host?: string): string;
  /** Squid's own access log, one entry a line ("squid" format: time elapsed client code/status bytes method URL user hierarchy type). */
  accessLog(): string[];
  close(): Promise<void>;
}

function squidConfig(dir: string, port: number, hosts: readonly string[], runAs: string | undefined, tls: boolean): string {
  return [
    tls
      ? `https_port 127.0.0.1:${port} tls-cert=${join(dir, 'proxy.pem')} tls-key=${join(dir, 'proxy.key')}`
      : `http_port 127.0.0.1:${port}`,
    `pid_filename ${join(dir, 'squid.pid')}`,
    `cache_log ${join(dir, 'cache.log')}`,
    // Unbuffered: a finished transaction is in the file when the test reads it.
    `access_log stdio:${join(dir, 'access.log')} squid`,
    'buffered_logs off',
    'cache_store_log none',
    'cache deny all',
    'cache_mem 1 MB',
    'memory_cache_shared off',
    `coredump_dir ${dir}`,
    `hosts_file ${join(dir, 'hosts')}`,
    // No DNS server is asked for anything: every name the test uses is in hosts_file.
    'dns_nameservers 127.0.0.1',
    'shutdown_lifetime 0 seconds',
    'pinger_enable off',
    'netdb_filename none',
    'visible_hostname oe-test-squid',
    ...(runAs === undefined ? [] : [`cache_effective_user ${runAs}`]),
    `auth_param basic program ${BASIC_NCSA_AUTH} ${join(dir, 'htpasswd')}`,
    'auth_param basic children 2 startup=1 idle=1',
    'auth_param basic realm Onboarding Events test proxy',
    `acl test_hosts dstdomain ${hosts.join(' ')}`,
    'acl authenticated proxy_auth REQUIRED',
    // Names first: an unknown name is refused without a lookup, so nothing leaves the machine.
    'http_access deny !test_hosts',
    'http_access allow authenticated',
    'http_access deny all',
    '',
  ].join('\n');
}

/** Starts Squid on a free 127.0.0.1 port with Basic proxy authentication (basic_ncsa_auth and an htpasswd file written here). */
export async function startSquid(options: SquidOptions): Promise<Squid> {
  // Run as root, Squid drops to the package's `proxy` user, which must reach its folder: the
  // process's own temporary folder may sit below folders only we can enter, /tmp does not.
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'oe-squid-'));
  const names = Object.keys(options.hosts);
  for (const [name, address] of Object.entries(options.hosts)) {
    if (!/^127\.\d+\.\d+\.\d+$/.test(address)) throw new Error(`startSquid: ${name} must resolve to 127.x, not ${address}`);
  }
  writeFileSync(
    join(dir, 'hosts'),
    Object.entries(options.hosts)
      .map(([name, address]) => `${address} ${name}\n`)
      .join(''),
  );
  const hash = execFileSync('openssl', ['passwd', '-apr1', options.password], { encoding: 'utf8' }).trim();
  writeFileSync(join(dir, 'htpasswd'), `${options.user}:${hash}\n`);
  const files = ['', 'hosts', 'htpasswd'];
  if (options.tls !== undefined) {
    // Copied next to the configuration: the test PKI's folder may not be readable by Squid's user.
    writeFileSync(join(dir, 'proxy.pem'), readFileSync(options.tls.certFile));
    writeFileSync(join(dir, 'proxy.key'), readFileSync(options.tls.keyFile), { mode: 0o600 });
    files.push('proxy.pem', 'proxy.key');
  }
  let runAs: string | undefined;
  if (asRoot) {
    const uid = uidOf('proxy');
    if (uid === undefined) throw new Error('startSquid: running as root and no `proxy` user to run Squid as');
    runAs = 'proxy';
    chmodSync(dir, 0o755);
    for (const name of files) chownSync(join(dir, name), uid, -1);
  }
  // Squid names its shared-memory segments after the service name (letters and digits only): a unique one keeps parallel runs apart.
  const service = `oesquid${process.pid}x${Date.now().toString(36)}`;
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    writeFileSync(join(dir, 'squid.conf'), squidConfig(dir, port, names, runAs, options.tls !== undefined));
    const child = spawn(SQUID, ['-N', '-n', service, '-f', join(dir, 'squid.conf'), '-d', '1'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const squid = new ProxyProcess('squid', child);
    // A Squid that dies abnormally leaves its shared-memory segments behind.
    const stop = async (): Promise<void> => {
      await squid.stop();
      for (const segment of ['cf__metadata', 'cf__queues', 'cf__readers']) rmSync(`/dev/shm/${service}-${segment}.shm`, { force: true });
    };
    try {
      await squid.listening(port);
    } catch (error) {
      lastError = error;
      await stop();
      // Another process may have taken the free port between the probe and Squid's bind: try another.
      continue;
    }
    const log = join(dir, 'access.log');
    return {
      port,
      urlWithCredentials: (user, password, host = '127.0.0.1') =>
        `${options.tls === undefined ? 'http' : 'https'}://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}`,
      accessLog: () =>
        existsSync(log)
          ? readFileSync(log, 'utf8')
              .split('\n')
              .filter((line) => line !== '')
          : [],
      close: async () => {
        await stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

export interface Mitmdump {
  readonly port: number;
  readonly url: string;
  /** mitmproxy's CA certificate (PEM), generated in its own confdir: what the user puts in onboardingEvents.caCertificatesFile. */
  readonly caFile: string;
  /** What mitmdump printed: one line for each request it decrypted (method and URL). */
  readonly console: string;
  close(): Promise<void>;
}

export interface MitmdumpOptions {
  /** Names mitmdump connects to at a 127.x address instead of resolving them; the only names it lets through. */
  readonly hosts: Readonly<Record<string, string>>;
  /** The CA mitmdump verifies the real server with (the API's test CA). */
  readonly upstreamCaFile: string;
}

/** The addon that stands in for a resolver: named hosts go to their loopback address, every other one is refused before any lookup. */
function hostsAddon(hosts: Readonly<Record<string, string>>): string {
  const table = JSON.stringify(Object.fromEntries(Object.entries(hosts).map(([name, address]) => [name.toLowerCase(), address])));
  return [
    `HOSTS = ${table}`,
    '',
    'def server_connect(data):',
    '    host, port = data.server.address',
    '    if host.lower() in HOSTS:',
    '        data.server.address = (HOSTS[host.lower()], port)',
    '    elif not host.startswith("127."):',
    '        data.server.error = "refused by the test proxy: not a test host"',
    '',
  ].join('\n');
}

/** Starts mitmdump as a TLS-inspecting proxy on a free 127.0.0.1 port, its CA generated in a temporary confdir. */
export async function startMitmdump(options: MitmdumpOptions): Promise<Mitmdump> {
  const dir = mkdtempSync(join(tmpdir(), 'oe-mitm-'));
  const confdir = join(dir, 'conf');
  writeFileSync(join(dir, 'hosts_addon.py'), hostsAddon(options.hosts));
  const binary = onPath('mitmdump');
  if (binary === undefined) throw new Error('startMitmdump: mitmdump is not installed');
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      binary,
      [
        '--listen-host',
        '127.0.0.1',
        '--listen-port',
        String(port),
        '--set',
        `confdir=${confdir}`,
        '--set',
        `ssl_verify_upstream_trusted_ca=${options.upstreamCaFile}`,
        '-s',
        join(dir, 'hosts_addon.py'),
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir } },
    );
    const mitm = new ProxyProcess('mitmdump', child);
    try {
      await mitm.listening(port);
    } catch (error) {
      lastError = error;
      await mitm.stop();
      continue;
    }
    const caFile = join(confdir, 'mitmproxy-ca-cert.pem');
    if (!existsSync(caFile)) {
      await mitm.stop();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`mitmdump listens but made no CA in ${confdir}`);
    }
    return {
      port,
      url: `http://127.0.0.1:${port}`,
      caFile,
      get console() {
        return mitm.console;
      },
      close: async () => {
        await mitm.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

const HOSTS_FILE = '/etc/hosts';

/**
 * Adds `127.0.0.1 name` to /etc/hosts for a test that sends the API direct
 * (http.noProxy), where the client resolves the name itself; returns the
 * function that removes exactly that line (also run at process exit), or
 * undefined when the file cannot be written.
 */
export function addHostsEntry(name: string, address = '127.0.0.1'): (() => void) | undefined {
  const marker = `# onboarding-events test ${process.pid}`;
  const line = `${address} ${name} ${marker}`;
  try {
    const text = readFileSync(HOSTS_FILE, 'utf8');
    writeFileSync(HOSTS_FILE, `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${line}\n`);
  } catch {
    return undefined;
  }
  const remove = (): void => {
    try {
      const text = readFileSync(HOSTS_FILE, 'utf8');
      const kept = text.split('\n').filter((entry) => entry !== line);
      if (kept.length !== text.split('\n').length) writeFileSync(HOSTS_FILE, kept.join('\n'));
    } catch {
      // Nothing more can be done; the marker names the process that added it.
    }
  };
  process.once('exit', remove);
  return remove;
}
