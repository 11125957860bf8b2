/** executionStarted: the trigger's one reading of n8n's answer (e2e case 2 checks it on every n8n supported). */
import { executionStarted } from '@package/nodes/ContentModeration/trigger/executionStarted';

describe('executionStarted: what n8n answered tells whether it started the execution', () => {
	type Response = Parameters<typeof executionStarted>[0];
	const response = (statusCode: number, writableEnded: boolean) => {
		const ended: number[] = [];
		return { statusCode, writableEnded, end: () => ended.push(1), ended } as unknown as Response & { ended: number[] };
	};

	test('a response n8n already ended: started only when its status is below 400', async () => {
		for (const status of [400, 500, 503]) await expect(executionStarted(response(status, true))).resolves.toBe(false);
		await expect(executionStarted(response(200, true))).resolves.toBe(true);
	});

	test('a response n8n ends later: its status then decides, and the end still goes out', async () => {
		const failed = response(200, false);
		const outcome = executionStarted(failed);
		failed.statusCode = 500;
		failed.end();
		await expect(outcome).resolves.toBe(false);
		expect(failed.ended).toHaveLength(1);
		const ok = response(200, false);
		const started = executionStarted(ok);
		ok.end();
		await expect(started).resolves.toBe(true);
	});
});
