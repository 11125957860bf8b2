/**
 * Reads n8n's own records (executions and their data) from <user folder>/.n8n/database.sqlite with the
 * sqlite3 module of the n8n install (built for Node 24) and n8n's `flatted` for the data column.
 */
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { installDir } from './install';

export interface ExecutionRow {
	id: number;
	workflowId: string;
	status: string;
	finished: number;
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

export interface ExecutionDetail extends ExecutionRow {
	/** node name -> output items (json) of its first run, main output 0 */
	items: Record<string, any[]>;
	/** node name -> all main outputs (per output index) of its first run */
	outputs: Record<string, any[][]>;
	error?: any;
	raw: any;
}

/** What the e2e cases and the demo read from n8n's records; sqlite here, Postgres in queue mode (pgdb.ts). */
export interface ExecutionRecords {
	executions(workflowId: string): Promise<ExecutionRow[]>;
	/** The highest execution id of any workflow so far (0 when none): ids are global, so later ones are newer. */
	lastExecutionId(): Promise<number>;
	execution(id: number | string): Promise<ExecutionDetail>;
	/** Everything the database holds, as bytes to search (secret-at-rest checks): its files, or a dump. */
	contents(): Promise<Array<{ name: string; bytes: Buffer }>>;
	close(): Promise<void>;
}

/** Parses execution_data.data (flatted) into the per-node outputs the cases read. */
export function toExecutionDetail(row: ExecutionRow & { data: string }): ExecutionDetail {
	const flatted = req()('flatted');
	const raw = flatted.parse(row.data);
	const runData = raw?.resultData?.runData ?? {};
	const items: Record<string, any[]> = {};
	const outputs: Record<string, any[][]> = {};
	for (const [name, runs] of Object.entries<any[]>(runData)) {
		const main: any[][] = runs?.[0]?.data?.main ?? [];
		outputs[name] = main.map((out) => (out ?? []).map((i: any) => i.json));
		items[name] = outputs[name][0] ?? [];
	}
	const { data: _d, ...rest } = row;
	return { ...rest, items, outputs, error: raw?.resultData?.error, raw };
}

function req(): NodeJS.Require {
	return createRequire(join(installDir(), 'node_modules', 'n8n', 'package.json'));
}

export class N8nDb implements ExecutionRecords {
	private readonly sqlite3: any;
	constructor(private readonly file: string) {
		this.sqlite3 = req()(join(installDir(), 'node_modules', 'sqlite3'));
	}

	static forUserFolder(userFolder: string): N8nDb {
		return new N8nDb(join(userFolder, '.n8n', 'database.sqlite'));
	}

	/**
	 * A connection per query: one kept open across an n8n restart can go on reading the snapshot from
	 * before it (a CI run once saw a resumed execution stay `waiting` and later executions missing).
	 */
	all<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
		return new Promise((res, rej) => {
			const db = new this.sqlite3.Database(this.file, this.sqlite3.OPEN_READONLY, (opened: Error | null) => {
				if (opened) return rej(opened);
				db.configure('busyTimeout', 10_000);
				db.all(sql, params, (e: Error | null, rows: T[]) => db.close(() => (e ? rej(e) : res(rows))));
			});
		});
	}

	executions(workflowId: string): Promise<ExecutionRow[]> {
		return this.all<ExecutionRow>(
			'SELECT id, workflowId, status, finished, mode, startedAt, stoppedAt FROM execution_entity WHERE workflowId = ? ORDER BY id',
			[workflowId],
		);
	}

	async lastExecutionId(): Promise<number> {
		const [row] = await this.all<{ last: number | null }>('SELECT MAX(id) AS last FROM execution_entity');
		return Number(row?.last ?? 0);
	}

	async execution(id: number | string): Promise<ExecutionDetail> {
		const [row] = await this.all<ExecutionRow & { data: string }>(
			`SELECT e.id, e.workflowId, e.status, e.finished, e.mode, e.startedAt, e.stoppedAt, d.data
			 FROM execution_entity e JOIN execution_data d ON d.executionId = e.id WHERE e.id = ?`,
			[Number(id)],
		);
		if (!row) throw new Error(`execution ${id} not found`);
		return toExecutionDetail(row);
	}

	/** The database file with its journal files (database.sqlite-wal, -shm, -journal) as they are on disk. */
	async contents(): Promise<Array<{ name: string; bytes: Buffer }>> {
		const dir = dirname(this.file);
		return readdirSync(dir)
			.filter((f) => f.startsWith(basename(this.file)))
			.map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
	}

	/** Nothing stays open (a connection per query). */
	close(): Promise<void> {
		return Promise.resolve();
	}
}
