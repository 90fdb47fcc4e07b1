import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliCommand, runCli } from './cli';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

const echo: CliCommand = {
  name: 'echo',
  summary: 'prints its arguments',
  run: async (args, { out }) => {
    out(args.join(' '));
    return 0;
  },
};

describe('firebreak-import', () => {
  it('prints usage for --help (exit 0) and without arguments (exit 2)', async () => {
    const help = io();
    expect(await runCli(['--help'], [echo], help.io)).toBe(0);
    expect(help.out.join('')).toContain('Usage: firebreak-import <source> [options]');
    expect(help.out.join('')).toContain('echo       prints its arguments');
    const none = io();
    expect(await runCli([], [echo], none.io)).toBe(2);
  });

  it('names an unknown source and exits 2', async () => {
    const t = io();
    expect(await runCli(['pagerduty'], [echo], t.io)).toBe(2);
    expect(t.err.join('')).toContain('unknown source "pagerduty"');
  });

  it('hands the remaining arguments to the source', async () => {
    const t = io();
    expect(await runCli(['echo', '--url', 'x'], [echo], t.io)).toBe(0);
    expect(t.out).toEqual(['--url x']);
  });

  it('runs as an executable', () => {
    const bin = resolve(import.meta.dirname, '../bin/firebreak-import.mjs');
    expect(execFileSync(bin, ['--help'], { encoding: 'utf8' })).toContain('Usage: firebreak-import');
  });
});
