import type { CliCommand } from './cli';
import { oncallCommand } from './oncall-command';
import { opsgenieCommand } from './opsgenie-command';
import { pagerdutyCommand } from './pagerduty-command';

/** The import sources this build offers. */
export const commands: CliCommand[] = [oncallCommand(), opsgenieCommand(), pagerdutyCommand()];
