// The reverse proxy of the split deployment: infra/nginx/firebreak.conf, the shipped file, with only
// its listen port and its three upstream addresses changed to the ports chosen at start.
import { execFileSync } from 'node:child_process';
import { constants, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type LogSink, ManagedProcess } from './processes';

export const SHIPPED_NGINX_CONF = resolve(import.meta.dirname, '../nginx/firebreak.conf');

export interface ProxyPorts {
  listen: number;
  ingest: number;
  api: number;
  chat: number;
}

/**
 * Every replaced string must occur exactly once in the shipped file: if the file changes shape, the
 * start fails here instead of running a proxy that routes somewhere else than the file says.
 */
export function renderNginxConf(shipped: string, ports: ProxyPorts): string {
  const replacements: Array<[string, string]> = [
    // nginx on loopback only: the deployment is private to this machine.
    ['listen 8080 default_server;', `listen 127.0.0.1:${ports.listen} default_server;`],
    ['server 127.0.0.1:8081;', `server 127.0.0.1:${ports.ingest};`],
    ['server 127.0.0.1:8082;', `server 127.0.0.1:${ports.api};`],
    ['server 127.0.0.1:8083;', `server 127.0.0.1:${ports.chat};`],
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

/**
 * The upstream (`ingest`, `api`, `chat`) that a config like firebreak.conf sends `path` to, by nginx's
 * location rules: an exact (`=`) location first, else the longest prefix. Undefined when nginx
 * answers the path itself. Regex locations are refused rather than half-understood.
 */
export function nginxUpstreamFor(conf: string, path: string): string | undefined {
  const locations = [...conf.matchAll(/^\s*location\s+(=|\^~|~\*?)?\s*([^\s{]+)\s*\{([^}]*)/gm)].map((m) => ({
    modifier: m[1] ?? '',
    path: m[2]!,
    body: m[3]!,
  }));
  if (locations.some((l) => l.modifier.startsWith('~')))
    throw new Error('regex locations are not supported here');
  const exact = locations.find((l) => l.modifier === '=' && l.path === path);
  const prefix = locations
    .filter((l) => l.modifier !== '=' && !l.path.startsWith('@') && path.startsWith(l.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
  const location = exact ?? prefix;
  return location && /proxy_pass\s+http:\/\/firebreak_(\w+)/.exec(location.body)?.[1];
}
