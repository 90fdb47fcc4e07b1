import { runCli } from './cli';
import { commands } from './commands';

process.exitCode = await runCli(process.argv.slice(2), commands, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  errIsTerminal: process.stderr.isTTY === true,
});
