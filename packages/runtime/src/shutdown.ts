import type { Logger } from '@firebreak/logger';

type Step = { name: string; run: () => Promise<void> };

/**
 * One Ctrl-C can arrive twice: the terminal signals the whole process group, and a launcher in it
 * (tsx, which `pnpm start` runs) passes the signal on to its child as well. A repeat this soon is the
 * same keypress, not an operator insisting.
 */
const SAME_SIGNAL_WITHIN_MS = 1000;

/**
 * Runs the registered steps in reverse order of registration on SIGINT/SIGTERM (servers stop
 * accepting before the database they use is closed). A second signal, a second or more after the
 * first, exits at once.
 */
export class Shutdown {
  private readonly steps: Step[] = [];
  private started = false;
  private firstSignalAt = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  listen(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.started) {
        if (this.now() - this.firstSignalAt < SAME_SIGNAL_WITHIN_MS) return;
        this.logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      this.firstSignalAt = this.now();
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
