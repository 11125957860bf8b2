/**
 * Reads n8n's own records (executions and their data) from <user folder>/.n8n/database.sqlite with the
 * sqlite3 module of the n8n install (built for Node 24) and n8n's `flatted` for the data column.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installDir } from './install';

interface ExecutionRow {
	id: number;
	workflowId: string;
	status: string;
	finished: number;
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

interface ExecutionDetail extends ExecutionRow {
	/** node name -> output items (json) of its first run, main output 0 */
	items: Record<string, any[]>;
	/** node name -> all main outputs (per output index) of its first run */
	outputs: Record<string, any[][]>;
	error?: any;
	raw: any;
}

function req(): NodeJS.Require {
	return createRequire(join(installDir(), 'node_modules', 'n8n', 'package.json'));
}

export class N8nDb {
	private db: any;
	constructor(file: string) {
		const r = req();
		const sqlite3 = r(join(installDir(), 'node_modules', 'sqlite3'));
		this.db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
		this.db.configure('busyTimeout', 10_000);
	}

	static forUserFolder(userFolder: string): N8nDb {
		return new N8nDb(join(userFolder, '.n8n', 'database.sqlite'));
	}

	all<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
		return new Promise((res, rej) => this.db.all(sql, params, (e: Error | null, rows: T[]) => (e ? rej(e) : res(rows))));
	}

	executions(workflowId: string): Promise<ExecutionRow[]> {
		return this.all<ExecutionRow>(
			'SELECT id, workflowId, status, finished, mode, startedAt, stoppedAt FROM execution_entity WHERE workflowId = ? ORDER BY id',
			[workflowId],
		);
	}

	async execution(id: number | string): Promise<ExecutionDetail> {
		const [row] = await this.all<ExecutionRow & { data: string }>(
			`SELECT e.id, e.workflowId, e.status, e.finished, e.mode, e.startedAt, e.stoppedAt, d.data
			 FROM execution_entity e JOIN execution_data d ON d.executionId = e.id WHERE e.id = ?`,
			[Number(id)],
		);
		if (!row) throw new Error(`execution ${id} not found`);
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

	close(): Promise<void> {
		return new Promise((res) => this.db.close(() => res()));
	}
}
