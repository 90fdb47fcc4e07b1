import { loadConfigOrExit } from '@firebreak/config';
import { firstAdminHandover } from './first-admin';
import { prepareDatabase } from './prepare-database';
import { createRuntime, type Runtime } from './runtime';
import { type FetchApp, startServer } from './serve';
import { Shutdown } from './shutdown';

export interface RunAppOptions {
  name: string;
  defaultPort: number;
  build: (runtime: Runtime, shutdown: Shutdown) => FetchApp | Promise<FetchApp>;
}

/** `main.ts` of an app started alone (split deployment, docs/api.md#processes). */
export async function runApp(options: RunAppOptions): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    process.stderr.write(
      `firebreak: invalid configuration\n  DATABASE_URL: is required when the ${options.name} app runs alone ` +
        '(only `pnpm start` embeds a database)\n',
    );
    process.exit(1);
  }
  const runtime = createRuntime({ name: options.name, config });
  const shutdown = new Shutdown(runtime.logger);
  shutdown.listen();
  shutdown.add('clients', runtime.close);
  const refuse = async (error: unknown) => {
    runtime.logger.fatal(
      { err: error },
      `start-up failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    await shutdown.run('start-up failed');
    process.exit(1);
  };
  // Never the password itself: this stdout is a container log (docs/runbooks/first-admin-password.md).
  const handover = firstAdminHandover({
    dataDir: config.dataDir,
    logger: runtime.logger,
    print: (line) => process.stdout.write(`${line}\n`),
  });
  const database = await prepareDatabase(runtime, handover).catch(refuse);
  if (!database) return;
  database.done.catch(refuse);
  shutdown.add('database preparation', async () => database.stop());
  const app = await options.build(runtime, shutdown);
  const server = await startServer(app, config.port ?? options.defaultPort, runtime.logger, config.host);
  shutdown.add('http server', () => server.close());
  runtime.logger.info({ url: server.url }, `${options.name} listening`);
}
