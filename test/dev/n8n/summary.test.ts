/** The demo's follow of later trigger executions (dev/n8n/summary.ts), against records held in memory. */
import type { ExecutionDetail, ExecutionRecords, ExecutionRow } from '@dev/n8n/db';
import type { N8nRest } from '@dev/n8n/rest';
import { dataWritten, describeDecision, followExecutions, runManually } from '@dev/n8n/summary';

/** `closing`: the next read stops the demo and fails, as a read under way while it stops does. */
function records(rows: ExecutionRow[], stop?: AbortController): ExecutionRecords & { failing: boolean; closing: boolean } {
	return {
		failing: false,
		closing: false,
		async executions(workflowId) {
			if (this.closing) stop?.abort();
			if (this.failing || this.closing) throw new Error('records closed');
			return rows.filter((r) => r.workflowId === workflowId).map((r) => ({ ...r }));
		},
		async lastExecutionId() {
			return Math.max(0, ...rows.map((r) => r.id));
		},
		async execution(id) {
			const row = rows.find((r) => r.id === Number(id))!;
			return { ...row, items: {}, outputs: {}, raw: {} } as ExecutionDetail;
		},
		async contents() {
			return [];
		},
		async close() {},
	};
}

const row = (id: number, status: string, workflowId = 'B'): ExecutionRow => ({
	id,
	workflowId,
	status,
	finished: status === 'success' ? 1 : 0,
	mode: 'webhook',
	startedAt: null,
	stoppedAt: null,
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('followExecutions', () => {
	it('prints each execution that ends after it starts, once, and stops when aborted', async () => {
		const rows = [row(1, 'success')];
		const stop = new AbortController();
		const db = records(rows, stop);
		const printed: string[] = [];
		const following = followExecutions(db, [{ workflowId: 'B', describe: (d) => `#${d.id} ${d.status}` }], (l) => printed.push(l), stop.signal, 10);
		await tick();
		rows.push(row(2, 'running'), row(3, 'success', 'other'));
		await tick();
		// Already there before, still running, or another workflow: nothing.
		expect(printed).toEqual([]);
		rows[1].status = 'success';
		await tick();
		await tick();
		expect(printed).toEqual(['#2 success']);
		// A read failing because the records closed while stopping is not an error.
		db.closing = true;
		await expect(following).resolves.toBeUndefined();
		expect(stop.signal.aborted).toBe(true);
	});

	it('a read failing while it runs is an error', async () => {
		const db = records([]);
		db.failing = true;
		await expect(followExecutions(db, [{ workflowId: 'B', describe: () => '' }], () => {}, new AbortController().signal, 10)).rejects.toThrow(
			'records closed',
		);
	});
});

test("describeDecision: the reviewer's decision and what part B did with the comment", () => {
	const detail = {
		...row(7, 'success'),
		items: { 'Review Decision': [{ id: 'item-1', status: 'rejected' }], 'Remove Comment': [{ comment: 'spam here' }] },
		outputs: {},
		raw: {},
	} as ExecutionDetail;
	expect(describeDecision(detail)).toBe('  execution #7 success: item item-1 rejected -> Remove Comment "spam here"');
});

describe('an ended execution counts once its data is written (n8n 1.x on sqlite writes status, then data)', () => {
	const detail = (status: string, raw: any): ExecutionDetail => ({ ...row(1, status), items: {}, outputs: {}, raw });
	const ran = { resultData: { runData: { Results: [{}] } } };
	const waits = { ...ran, waitTill: '2026-12-07T12:00:00Z' };

	it('tells the data of the wait, or from before it, from the data that matches the status', () => {
		expect(dataWritten(detail('success', waits))).toBe(false);
		expect(dataWritten(detail('success', { resultData: { runData: {} } }))).toBe(false);
		expect(dataWritten(detail('success', ran))).toBe(true);
		expect(dataWritten(detail('waiting', ran))).toBe(false);
		expect(dataWritten(detail('waiting', waits))).toBe(true);
		expect(dataWritten(detail('error', { resultData: { runData: {} } }))).toBe(true);
	});

	it('runManually returns only after the data is written', async () => {
		const datas = [waits, waits, ran];
		let reads = 0;
		const db = records([row(7, 'success', 'W')]);
		db.execution = async () => detail('success', datas[Math.min(reads++, datas.length - 1)]);
		const rest = { startManualRun: async () => 7 } as unknown as N8nRest;
		expect(await runManually(rest, db, 'W', 5_000)).toBe(7);
		expect(reads).toBe(3);
	});
});
