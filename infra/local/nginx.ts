// The reverse proxy of the split deployment: infra/nginx/firebreak.conf, the shipped file, with only
// its listen port and its three upstream addresses changed to the ports chosen at start (one address
// per replica when an app runs several).
import { execFileSync } from 'node:child_process';
import { constants, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type LogSink, ManagedProcess } from './processes';

export const SHIPPED_NGINX_CONF = resolve(import.meta.dirname, '../nginx/firebreak.conf');

export interface ProxyPorts {
  listen: number;
  /** Each routed app's port, or its replicas' ports (nginx balances over them, round robin). */
  ingest: number | number[];
  api: number | number[];
  chat: number | number[];
}

const servers = (ports: number | number[]) =>
  [ports]
    .flat()
    .map((port) => `server 127.0.0.1:${port};`)
    .join('\n        ');

/**
 * Every replaced string must occur exactly once in the shipped file: if the file changes shape, the
 * start fails here instead of running a proxy that routes somewhere else than the file says.
 */
export function renderNginxConf(shipped: string, ports: ProxyPorts): string {
  const replacements: Array<[string, string]> = [
    // nginx on loopback only: the deployment is private to this machine.
    ['listen 8080 default_server;', `listen 127.0.0.1:${ports.listen} default_server;`],
    ['server 127.0.0.1:8081;', servers(ports.ingest)],
    ['server 127.0.0.1:8082;', servers(ports.api)],
    ['server 127.0.0.1:8083;', servers(ports.chat)],
  ];
  let conf = shipped;
  for (const [from, to] of replacements) {
    const count = conf.split(from).length - 1;
    if (count !== 1) {
      throw new Error(`infra/nginx/firebreak.conf: expected "${from}" exactly once, found it ${count} times`);
    }
    conf = conf.replace(from, to);
  }
  return conf;
}

/** Starts nginx unprivileged-style: every path it writes is under `prefix` (see firebreak.conf). */
export function startProxy(options: { prefix: string; ports: ProxyPorts; log: LogSink }): ManagedProcess {
  mkdirSync(options.prefix, { recursive: true });
  const conf = join(options.prefix, 'nginx.conf');
  writeFileSync(conf, renderNginxConf(readFileSync(SHIPPED_NGINX_CONF, 'utf8'), options.ports));
  const stdout = accessLogPipe(options.prefix, options.log);
  const args = ['-c', conf, '-p', `${options.prefix}/`, '-g', 'daemon off;'];
  const proxy = new ManagedProcess('nginx', nginxBinary(), args, {
    cwd: options.prefix,
    env: process.env,
    log: options.log,
    stdoutFd: stdout.fd,
    // SIGQUIT is nginx's graceful shutdown: stop accepting, finish the requests in flight.
    stopSignal: 'SIGQUIT',
  });
  void proxy.exited().then(stdout.close);
  return proxy;
}

/**
 * The shipped config logs access to /dev/stdout, which nginx opens by path; Node gives a child a
 * socket, not a pipe, as stdout, and opening a socket through /dev/stdout fails (ENXIO). A named
 * pipe is a real pipe: nginx writes into it, we read from it. Opened read-write so that neither side
 * blocks on open and the pipe outlives nginx's own descriptors.
 */
function accessLogPipe(prefix: string, log: LogSink): { fd: number; close: () => void } {
  const fifo = join(prefix, 'stdout.fifo');
  rmSync(fifo, { force: true });
  execFileSync('mkfifo', ['-m', '600', fifo]);
  const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  const reader = new Socket({ fd, readable: true, writable: false });
  createInterface({ input: reader }).on('line', (line) => log('nginx', line));
  return { fd, close: () => reader.destroy() };
}

/** Debian installs nginx in /usr/sbin, which is not on every user's PATH. */
function nginxBinary(): string {
  return process.env.NGINX_BIN ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');
}

interface Location {
  modifier: '' | '=' | '^~' | '~' | '~*';
  path: string;
  /** The location's own directives, without those of the locations nested in it. */
  body: string;
  nested: Location[];
}

/** The `location` blocks of `text` (comments removed), each with the locations nested in it. */
function parseLocations(text: string): Location[] {
  return parseLevel(text.replace(/(^|\s)#[^\n]*/g, '$1')).locations;
}

function parseLevel(text: string): { locations: Location[]; rest: string } {
  const locations: Location[] = [];
  const start = /\blocation\s+(=|\^~|~\*?)?\s*([^\s{]+)\s*\{/g;
  let rest = '';
  let from = 0;
  let match = start.exec(text);
  while (match) {
    let depth = 1;
    let i = start.lastIndex;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '{') depth += 1;
      else if (text[i] === '}') depth -= 1;
    }
    const inner = parseLevel(text.slice(start.lastIndex, i - 1));
    locations.push({
      modifier: (match[1] ?? '') as Location['modifier'],
      path: match[2]!,
      body: inner.rest,
      nested: inner.locations,
    });
    rest += text.slice(from, match.index);
    from = i;
    start.lastIndex = i;
    match = start.exec(text);
  }
  return { locations, rest: rest + text.slice(from) };
}

/**
 * nginx's search, on one level of locations: an exact match ends it; else the longest prefix, whose
 * nested locations are searched in turn (an exact or regex match there ends it); then, unless that
 * prefix is `^~`, this level's regexes in order; else the prefix itself. `final` is true for an exact
 * or regex match, which the level above must not look past.
 */
function findLocation(
  locations: Location[],
  path: string,
): { location: Location; final: boolean } | undefined {
  const exact = locations.find((l) => l.modifier === '=' && l.path === path);
  if (exact) return { location: exact, final: true };
  const prefix = locations
    .filter(
      (l) => (l.modifier === '' || l.modifier === '^~') && !l.path.startsWith('@') && path.startsWith(l.path),
    )
    .sort((a, b) => b.path.length - a.path.length)[0];
  let candidate = prefix;
  if (prefix) {
    const inner = findLocation(prefix.nested, path);
    if (inner?.final) return inner;
    candidate = inner?.location ?? prefix;
  }
  if (prefix?.modifier !== '^~') {
    for (const l of locations) {
      if (!l.modifier.startsWith('~')) continue;
      if (new RegExp(l.path, l.modifier === '~*' ? 'i' : '').test(path)) return { location: l, final: true };
    }
  }
  return candidate && { location: candidate, final: false };
}

/**
 * The upstream (`ingest`, `api`, `chat`) that a config like firebreak.conf sends `path` to, by nginx's
 * location rules (findLocation), nested locations and regexes included. Undefined when nginx answers
 * the path itself.
 */
export function nginxUpstreamFor(conf: string, path: string): string | undefined {
  const found = findLocation(parseLocations(conf), path)?.location;
  return found && /proxy_pass\s+http:\/\/firebreak_(\w+)/.exec(found.body)?.[1];
}

/** The location nginx picks for `path`, as `location <modifier> <path>` (for tests of the config). */
export function nginxLocationFor(conf: string, path: string): string | undefined {
  const found = findLocation(parseLocations(conf), path)?.location;
  return found && `location ${found.modifier ? `${found.modifier} ` : ''}${found.path}`;
}
