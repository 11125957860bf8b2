/**
 * Wait for Callback, the execute() side (pause.ts): the execution pauses until the callbacks come, and
 * at the Wait Timeout n8n resumes it without the node.
 */
import path from 'node:path';

import type { IRun } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { waitFor } from '@dev/wait';
import { loadCore } from '@test/helpers/engine/core';
import { pairedIndex } from '@test/helpers/fixtures';
import { NODE, probed, urlItems, waitParameters, useWaitingImages } from '@test/helpers/waitingImages';

const waiting = useWaitingImages();
const { callbackUrls, gets, startWaiting } = waiting;
let mock: MockService;
beforeAll(() => {
	mock = waiting.mock;
});

/** n8n-core's Logger, from the DI container n8n-core itself uses (core.ts). */
async function n8nLogger(): Promise<{ warn: (...args: unknown[]) => void }> {
	const { Container } = await loadCore();
	const coreDir = path.dirname(require.resolve('n8n-core'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Logger } = require(require.resolve('@n8n/backend-common', { paths: [coreDir] })) as { Logger: new () => never };
	return Container.get(Logger);
}

describe("Wait for Callback's warnings (execution hints), which n8n drops with the waiting run", () => {
	const NO_THRESHOLD = expect.stringContaining('Route by Verdict has no threshold set');
	const hintsOf = (run: IRun | undefined) => run?.data.resultData.runData[NODE]?.map((task) => task.hints);

	it.each(['a callback', 'the Wait Timeout'])('are on the waiting run and in n8n\'s log, which keeps them after %s resumes it without them', async (resumer) => {
		const warn = jest.spyOn(await n8nLogger(), 'warn');
		try {
			mock.configure({ processMs: resumer === 'a callback' ? 50 : 60_000 });
			const execution = await startWaiting(waitParameters({ routeByVerdict: true }), urlItems([SAFE_IMAGE_URL]));
			expect(execution.status).toBe('waiting');
			expect(hintsOf(execution.run)).toEqual([[{ message: NO_THRESHOLD, type: 'warning', location: 'outputPane' }]]);
			expect(warn).toHaveBeenCalledWith(NO_THRESHOLD, { node: NODE, executionId: execution.id });
			const run = resumer === 'a callback' ? await execution.finished(30_000) : await execution.expire();
			expect(run.status).toBe('success');
			// n8n pops the waiting run and records the resumed one as a disabled node's: no code of ours adds hints there.
			expect(hintsOf(run.run)).toEqual([[]]);
			expect(warn).toHaveBeenCalledTimes(1);
		} finally {
			warn.mockRestore();
		}
	});
});

describe('Wait for Callback: waiting and timing out', () => {
	it('pauses the execution, reads nothing while nothing is ready, and one callback resumes it', async () => {
		mock.configure({ processMs: 3_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));

		expect(execution.status).toBe('waiting');
		const waitTill = execution.waitTill?.getTime() ?? 0;
		expect(waitTill - Date.now()).toBeGreaterThan(590_000);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(600_000);
		const [url] = callbackUrls();
		const parsed = new URL(url);
		expect(parsed.pathname).toBe(`/webhook-waiting/${execution.id}/callback`);
		expect(parsed.searchParams.get('signature')).toBe(execution.resumeToken);
		expect(parsed.searchParams.get('item')).toBe('0');
		expect(parsed.searchParams.get('key')).toMatch(/^[0-9a-f]{64}$/);

		// Nothing is ready for 3 s: the node polls nothing meanwhile.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		expect(execution.status).toBe('waiting');
		expect(gets()).toBe(0);

		const run = await execution.finished(30_000);
		expect(run.status).toBe('success');
		const [output] = run.outputsOf(NODE);
		expect(output).toHaveLength(1);
		const submitted = mock.submissionLog[0].id;
		expect(output[0].json).toMatchObject({ id: submitted, isSafe: true });
		expect(pairedIndex(output[0])).toBe(0);
		expect(execution.resumes).toBe(1);
		expect(execution.webhookThrew).toBe(false);
		expect(execution.calls.filter((call) => call.resumed)).toHaveLength(1);
		// The callback carried the result: nothing had to be read back.
		expect(gets()).toBe(0);
		// The per-execution secret and item keys are no output.
		const outputs = JSON.stringify(run.runData);
		expect(outputs).not.toContain(parsed.searchParams.get('key'));
	});

	it('at the Wait Timeout n8n resumes without the node: the input items go unchanged to the first output (Timed Out)', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(
			waitParameters({ routeByVerdict: true, waitTimeout: 1 }),
			urlItems([SAFE_IMAGE_URL, UNSAFE_IMAGE_URL]),
			{ probes: 4 },
		);
		expect(execution.status).toBe('waiting');
		const run = await execution.expire();
		expect(run.status).toBe('success');
		// n8n passes the input on as the first output only.
		expect(run.outputsOf(NODE)).toHaveLength(1);
		const [flagged] = run.outputsOf(NODE);
		expect(flagged.map((item) => item.json)).toEqual([
			{ name: 'item-0', url: SAFE_IMAGE_URL },
			{ name: 'item-1', url: UNSAFE_IMAGE_URL },
		]);
		// Nothing there looks like a result: no verdict, no isSafe; each stays paired to its input item.
		expect(flagged.every((item) => item.json.verdict === undefined && item.json.isSafe === undefined)).toBe(true);
		expect(probed(run, 0)).toEqual([
			{ own: 'item-0', paired: 'item-0' },
			{ own: 'item-1', paired: 'item-1' },
		]);
		expect(probed(run, 1)).toEqual([]);
	});

	it('at the Wait Timeout with some results in and some missing: every input item on Timed Out, none as a result', async () => {
		// Completion times spread over 30 s: some results come in before the timeout, some do not.
		mock.configure({ processMs: 50, processJitterMs: 30_000 });
		const urls = Array.from({ length: 6 }, (_, index) => `${SAFE_IMAGE_URL}?n=${index}`);
		const execution = await startWaiting(waitParameters({ routeByVerdict: true, waitTimeout: 1 }), urlItems(urls));
		await waitFor(
			'a first callback',
			() => (execution.calls.some((call) => call.status === 200 && !call.resumed) ? true : undefined),
			30_000,
			50,
		);
		expect(execution.status).toBe('waiting');
		const run = await execution.expire();
		expect(execution.resumes).toBe(1);
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((item) => item.json)).toEqual(urls.map((url, index) => ({ name: `item-${index}`, url })));
	});
});
