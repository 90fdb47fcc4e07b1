// `pnpm db:migrate`: applies pending migrations to DATABASE_URL (or DATABASE_URL_FILE) and exits.
import { loadConfigOrExit } from '@firebreak/config';
import { createSql } from './client';
import { migrate } from './migrate';

const config = loadConfigOrExit();
if (!config.databaseUrl) {
  process.stderr.write('db:migrate: DATABASE_URL is not set\n');
  process.exit(1);
}
const sql = createSql(config.databaseUrl, { max: 1, applicationName: 'firebreak-migrate' });
try {
  const { applied } = await migrate(sql);
  if (applied.length === 0) process.stdout.write('db:migrate: up to date\n');
  for (const m of applied) process.stdout.write(`db:migrate: applied ${m.version}_${m.name}\n`);
} catch (error) {
  process.stderr.write(`db:migrate: failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
