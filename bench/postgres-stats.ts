import pg from "pg";

/**
 * PostgreSQL's own account of a soak (`BENCH_DATABASE_URL` soaks): what the server's sessions
 * waited on, sampled every second from pg_stat_activity and pg_locks, and once a minute what the
 * searches' table holds (live and dead tuples of the table and of its TOAST, autovacuum runs,
 * the size of the heap, the TOAST and each index) and the WAL and checkpoints written. It answers
 * "why did the searches wait" with the server's evidence instead of the client's latencies.
 */

/** The searches' table, and the tables whose growth or vacuuming could hold it up. */
const WATCHED_TABLES = ["OfferRequest"];

interface TableCounters {
  live: number;
  dead: number;
  autovacuums: number;
  inserted: number;
  deleted: number;
  lastAutovacuum: string | null;
}

interface MinuteCounters {
  tables: Map<string, TableCounters>;
  walBytes: number;
  walSyncs: number;
  walSyncMs: number;
  checkpoints: number;
  /** Buffers written by the sessions themselves (none came clean in time), and by the background writer. */
  backendWrites: number;
  cleanerWrites: number;
  /** Per statement (pg_stat_statements): calls, total time and rows so far. */
  statements: Map<string, { calls: number; ms: number; rows: number }>;
}

/** One second's view: the database's client sessions by state and wait, and the locks not granted. */
interface Sample {
  /** "active CPU", "active Lock:transactionid", "idle in transaction Client:ClientRead", … */
  sessions: Map<string, number>;
  waitingLocks: Map<string, number>;
  vacuuming: string[];
}

const SAMPLE_MS = 1000;

export class PostgresStats {
  private readonly client: pg.Client;
  private timer: NodeJS.Timeout | null = null;
  private samples: Sample[] = [];
  private previous: MinuteCounters | null = null;
  private sampling = false;
  private statementsLoaded = false;

  private constructor(url: string) {
    this.client = new pg.Client({ connectionString: url, application_name: "aerogate-soak-stats" });
    this.client.on("error", () => undefined);
  }

  static async connect(url: string): Promise<PostgresStats> {
    const stats = new PostgresStats(url);
    await stats.client.connect();
    // Only where the server preloads it; the bench's database is its own, so the extension may go in.
    stats.statementsLoaded = await stats.client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").then(
      () => stats.client.query("SELECT 1 FROM pg_stat_statements LIMIT 1").then(() => true),
      () => false,
    );
    stats.previous = await stats.counters();
    return stats;
  }

  start(): void {
    this.timer = setInterval(() => void this.sample(), SAMPLE_MS);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.client.end().catch(() => undefined);
  }

  /** The minute since the last call, as lines to print: sessions and waits, locks, tables. */
  async minute(): Promise<string[]> {
    const samples = this.samples;
    this.samples = [];
    const now = await this.counters();
    const before = this.previous ?? now;
    this.previous = now;
    const lines = [`sessions (mean of ${samples.length} samples): ${describeMean(samples.map((sample) => sample.sessions), samples.length)}`];
    const locks = describeMean(samples.map((sample) => sample.waitingLocks), samples.length);
    lines.push(`locks waited for: ${locks || "none"}`);
    const vacuums = new Map<string, number>();
    for (const sample of samples) for (const phase of sample.vacuuming) vacuums.set(phase, (vacuums.get(phase) ?? 0) + 1);
    lines.push(`autovacuum at work (seconds): ${[...vacuums].map(([phase, seconds]) => `${phase} ${seconds}`).join(", ") || "none"}`);
    for (const [table, counters] of now.tables) {
      const earlier = before.tables.get(table) ?? counters;
      lines.push(
        `${table}: live ${counters.live}, dead ${counters.dead}, +${counters.inserted - earlier.inserted} inserted, -${counters.deleted - earlier.deleted} deleted, ` +
          `${counters.autovacuums - earlier.autovacuums} autovacuum(s) (last ${counters.lastAutovacuum ?? "never"})`,
      );
    }
    lines.push(`sizes: ${await this.sizes()}`);
    const syncs = now.walSyncs - before.walSyncs;
    lines.push(
      `WAL ${((now.walBytes - before.walBytes) / 1_048_576).toFixed(1)} MB in ${syncs} flushes (${syncs > 0 ? ((now.walSyncMs - before.walSyncMs) / syncs).toFixed(2) : "–"} ms each), ` +
        `${now.checkpoints - before.checkpoints} checkpoint(s); buffers written by sessions ${now.backendWrites - before.backendWrites}, by the background writer ${now.cleanerWrites - before.cleanerWrites}`,
    );
    if (this.statementsLoaded) lines.push(`statements most run: ${topStatements(before.statements, now.statements)}`);
    return lines;
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      // One after another: a pg.Client runs one query at a time.
      const sessions = await this.client.query<{ what: string; count: number }>(
        `SELECT state || ' ' || coalesce(wait_event_type || ':' || wait_event, 'CPU') AS what, count(*)::int AS count
         FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
         GROUP BY 1`,
      );
      const locks = await this.client.query<{ what: string; count: number }>(
        `SELECT locktype || ' ' || mode || coalesce(' on ' || relation::regclass::text, '') AS what, count(*)::int AS count
         FROM pg_locks WHERE NOT granted GROUP BY 1`,
      );
      const vacuum = await this.client.query<{ what: string }>(`SELECT relid::regclass::text || ' ' || phase AS what FROM pg_stat_progress_vacuum WHERE datname = current_database()`);
      this.samples.push({
        sessions: new Map(sessions.rows.map((row) => [row.what, row.count])),
        waitingLocks: new Map(locks.rows.map((row) => [row.what, row.count])),
        vacuuming: vacuum.rows.map((row) => row.what),
      });
    } catch {
      // A sample lost to a busy or restarting server is a gap, not a failure of the soak.
    } finally {
      this.sampling = false;
    }
  }

  private async counters(): Promise<MinuteCounters> {
    const tables = await this.client.query<{ name: string; live: string; dead: string; autovacuums: string; inserted: string; deleted: string; last: Date | null }>(
      `SELECT CASE WHEN s.relid = c.oid THEN c.relname ELSE c.relname || ' TOAST' END AS name,
         s.n_live_tup AS live, s.n_dead_tup AS dead, s.autovacuum_count AS autovacuums, s.n_tup_ins AS inserted, s.n_tup_del AS deleted, s.last_autovacuum AS last
       FROM pg_class c JOIN pg_stat_all_tables s ON s.relid IN (c.oid, c.reltoastrelid)
       WHERE c.relname = ANY($1) AND c.relkind IN ('r', 'p') ORDER BY 1`,
      [WATCHED_TABLES],
    );
    const wal = await this.client.query<{ wal: string; syncs: string; sync_ms: number; checkpoints: string; backend: string; clean: string }>(
      `SELECT w.wal_bytes AS wal, w.wal_sync AS syncs, w.wal_sync_time AS sync_ms, b.checkpoints_timed + b.checkpoints_req AS checkpoints,
         b.buffers_backend AS backend, b.buffers_clean AS clean FROM pg_stat_wal w, pg_stat_bgwriter b`,
    );
    const statements = this.statementsLoaded
      ? await this.client.query<{ query: string; calls: string; ms: number; rows: string }>(
          `SELECT query, calls, total_exec_time AS ms, rows FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        )
      : { rows: [] };
    return {
      tables: new Map(
        tables.rows.map((row) => [
          row.name,
          { live: Number(row.live), dead: Number(row.dead), autovacuums: Number(row.autovacuums), inserted: Number(row.inserted), deleted: Number(row.deleted), lastAutovacuum: row.last?.toISOString().slice(11, 19) ?? null },
        ]),
      ),
      walBytes: Number(wal.rows[0]!.wal),
      walSyncs: Number(wal.rows[0]!.syncs),
      walSyncMs: Number(wal.rows[0]!.sync_ms),
      checkpoints: Number(wal.rows[0]!.checkpoints),
      backendWrites: Number(wal.rows[0]!.backend),
      cleanerWrites: Number(wal.rows[0]!.clean),
      statements: new Map(statements.rows.map((row) => [row.query, { calls: Number(row.calls), ms: row.ms, rows: Number(row.rows) }])),
    };
  }

  /** The searches' heap, TOAST and each index, in MB. */
  private async sizes(): Promise<string> {
    const { rows } = await this.client.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes FROM pg_class c WHERE c.relname = ANY($1)
       UNION ALL SELECT c.relname || ' TOAST', pg_relation_size(c.reltoastrelid) FROM pg_class c WHERE c.relname = ANY($1) AND c.reltoastrelid <> 0
       UNION ALL SELECT i.relname, pg_relation_size(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid WHERE t.relname = ANY($1)
       ORDER BY 1`,
      [WATCHED_TABLES],
    );
    return rows.map((row) => `${row.name} ${(Number(row.bytes) / 1_048_576).toFixed(1)}`).join(", ");
  }
}

/** Counts summed over samples, as means per sample, largest first: "active CPU 2.1, active Lock:tuple 0.4". */
function describeMean(counts: Array<Map<string, number>>, samples: number): string {
  const totals = new Map<string, number>();
  for (const sample of counts) for (const [what, count] of sample) totals.set(what, (totals.get(what) ?? 0) + count);
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([what, total]) => `${what} ${(total / Math.max(1, samples)).toFixed(2)}`)
    .join(", ");
}

/** The five statements run most in the minute: calls, mean time, rows per call, and their text's start. */
function topStatements(before: MinuteCounters["statements"], now: MinuteCounters["statements"]): string {
  const minute = [...now].map(([query, counts]) => {
    const earlier = before.get(query) ?? { calls: 0, ms: 0, rows: 0 };
    return { query, calls: counts.calls - earlier.calls, ms: counts.ms - earlier.ms, rows: counts.rows - earlier.rows };
  });
  return minute
    .filter((statement) => statement.calls > 0)
    .sort((a, b) => b.calls - a.calls)
    .slice(0, 5)
    .map((statement) => `${statement.calls}× ${(statement.ms / statement.calls).toFixed(2)} ms ${(statement.rows / statement.calls).toFixed(1)} rows "${statement.query.replace(/\s+/g, " ").slice(0, 70)}"`)
    .join("; ");
}
