import type { CliCommand } from './cli';

/** The import sources this build offers. */
export const commands: CliCommand[] = [];
