/**
 * `firebreak-import <source> [options]`. The argument handling lives here, apart from `main.ts`, so it
 * can be tested without spawning a process. Each source is one sub-command.
 */

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** stderr is a terminal (progress is shown there, never in pipes or files). */
  errIsTerminal?: boolean;
}

export interface CliCommand {
  name: string;
  summary: string;
  run(args: string[], io: CliIo): Promise<number>;
}

export function usage(commands: CliCommand[]): string {
  const lines = ['Usage: firebreak-import <source> [options]', '', 'Sources:'];
  if (commands.length === 0) lines.push('  (none in this version)');
  for (const command of commands) lines.push(`  ${command.name.padEnd(10)} ${command.summary}`);
  lines.push('', 'Run `firebreak-import <source> --help` for the options of a source.');
  return `${lines.join('\n')}\n`;
}

/** Exit codes: 0 done, 1 the import failed, 2 the command line was wrong. */
export async function runCli(argv: string[], commands: CliCommand[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage(commands));
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`firebreak-import: unknown source "${name}"\n\n${usage(commands)}`);
    return 2;
  }
  return command.run(rest, io);
}
