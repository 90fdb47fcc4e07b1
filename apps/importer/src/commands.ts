import type { CliCommand } from './cli';
import { oncallCommand } from './oncall-command';

/** The import sources this build offers. */
export const commands: CliCommand[] = [oncallCommand()];
