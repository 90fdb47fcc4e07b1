// `pnpm start`: the embedded default. One port (default 8080), every app's routes, the worker and the
// chat worker; an embedded PostgreSQL without DATABASE_URL; Redis as found. With more than one core
// (HTTP_PROCESSES), this process is the primary: it prepares everything once, runs the background work
// exactly once, and forks HTTP processes that only serve (docs/decisions.md#start-up-and-processes).
// Each kind loads only its own modules: an HTTP process never loads the worker's.
import cluster from 'node:cluster';
import { resolve } from 'node:path';

// apps/web/dist, from src/ (tsx) and from dist/ (the bundle) alike.
const webRoot = resolve(import.meta.dirname, '../../web/dist');

if (cluster.isWorker) {
  const { runHttpProcess } = await import('./cluster/http-process');
  await runHttpProcess(webRoot).catch((error: unknown) => {
    process.stderr.write(`HTTP process failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
} else {
  const { runPrimary } = await import('./primary');
  await runPrimary(webRoot);
}
