import type { Logger } from '@firebreak/logger';

type Step = { name: string; run: () => Promise<void> };

/**
 * Runs the registered steps in reverse order of registration on SIGINT/SIGTERM (servers stop
 * accepting before the database they use is closed). A second signal exits at once.
 */
export class Shutdown {
  private readonly steps: Step[] = [];
  private started = false;

  constructor(private readonly logger: Logger) {}

  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  listen(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.started) {
        this.logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      void this.run(signal).then(() => process.exit(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  async run(reason: string): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.logger.info({ reason }, 'shutting down');
    for (const step of [...this.steps].reverse()) {
      try {
        await step.run();
      } catch (error) {
        this.logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    this.logger.info('stopped');
  }
}
