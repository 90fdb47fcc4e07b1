import postgres from 'postgres';

/** What PostgreSQL wrote to its write-ahead log over a stretch of time (`pg_stat_wal`). */
export interface WalWritten {
  records: number;
  /** Full-page images: the first change to a page after a checkpoint writes the whole 8 kB page. */
  fullPageImages: number;
  bytes: number;
}

async function walSoFar(sql: postgres.Sql): Promise<WalWritten> {
  const [row] = await sql<{ records: string; fpi: string; bytes: string }[]>`
    select wal_records::text as records, wal_fpi::text as fpi, wal_bytes::text as bytes from pg_stat_wal`;
  return { records: Number(row!.records), fullPageImages: Number(row!.fpi), bytes: Number(row!.bytes) };
}

/**
 * The WAL the whole server wrote while `work` ran. Cluster-wide: run nothing else against the server
 * meanwhile. Where a request's writes go (rows, index entries, full-page images) shows here when CPU
 * time alone cannot tell.
 */
export async function walWrittenDuring<T>(
  databaseUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; wal: WalWritten }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const before = await walSoFar(sql);
    const result = await work();
    const after = await walSoFar(sql);
    return {
      result,
      wal: {
        records: after.records - before.records,
        fullPageImages: after.fullPageImages - before.fullPageImages,
        bytes: after.bytes - before.bytes,
      },
    };
  } finally {
    await sql.end();
  }
}
