/**
 * n8n's own records (executions and their data) in queue mode, where every process shares one Postgres
 * database: the same reads as db.ts (sqlite), through the `pg` client of the n8n install, which n8n itself
 * uses, so the project gains no dependency and needs no `psql` output parsing.
 */
import { ExecutionDetail, ExecutionRecords, ExecutionRow, toExecutionDetail } from './db';
import { pgDump, pgModule } from './postgres';

const COLUMNS = `e.id, e."workflowId", e.status, e.finished, e.mode, e."startedAt", e."stoppedAt"`;

export class PgN8nDb implements ExecutionRecords {
	private pool: any;
	constructor(private readonly conn: { host: string; port: number; user: string; database: string }) {
		const pg = pgModule();
		this.pool = new pg.Pool({ ...conn, max: 4 });
	}

	/** A plain-SQL `pg_dump` of n8n's database: every table n8n wrote, with its rows. */
	async contents(): Promise<Array<{ name: string; bytes: Buffer }>> {
		return [{ name: `pg_dump of ${this.conn.database}`, bytes: pgDump(this.conn) }];
	}

	async all<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
		return (await this.pool.query(sql, params)).rows;
	}

	async executions(workflowId: string): Promise<ExecutionRow[]> {
		const rows = await this.all(`SELECT ${COLUMNS} FROM execution_entity e WHERE e."workflowId" = $1 ORDER BY e.id`, [workflowId]);
		return rows.map(normalise);
	}

	async lastExecutionId(): Promise<number> {
		const [row] = await this.all('SELECT MAX(id) AS last FROM execution_entity');
		return Number(row?.last ?? 0);
	}

	async execution(id: number | string): Promise<ExecutionDetail> {
		const [row] = await this.all(
			`SELECT ${COLUMNS}, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e.id = $1`,
			[Number(id)],
		);
		if (!row) throw new Error(`execution ${id} not found`);
		return toExecutionDetail({ ...normalise(row), data: row.data });
	}

	close(): Promise<void> {
		return this.pool.end();
	}
}

/** Postgres gives ids as numbers, booleans and Dates; the sqlite reader's callers expect its shapes. */
function normalise(r: any): ExecutionRow {
	return {
		id: Number(r.id),
		workflowId: r.workflowId,
		status: r.status,
		finished: r.finished ? 1 : 0,
		mode: r.mode,
		startedAt: r.startedAt ? new Date(r.startedAt).toISOString() : null,
		stoppedAt: r.stoppedAt ? new Date(r.stoppedAt).toISOString() : null,
	};
}
