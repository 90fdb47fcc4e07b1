import type { ServiceContext } from '@firebreak/services';
import { startHousekeeping } from './housekeeping';

export interface RunningWorker {
  stop(): Promise<void>;
}

/** Everything the worker runs in the background; the embedded start runs it inside its process. */
export function startWorker(ctx: ServiceContext): RunningWorker {
  const housekeeping = startHousekeeping(ctx);
  return {
    stop: async () => {
      housekeeping.stop();
    },
  };
}
