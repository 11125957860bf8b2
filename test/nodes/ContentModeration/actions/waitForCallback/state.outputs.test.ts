/**
 * Wait for Callback, the final outputs (state.ts finalOutputs): one item per input item in input order, paired,
 * routed, with error items of failed submissions beside the results.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { waitFor } from '@dev/wait';
import { mockImageUrl, REVIEW_IMAGE_URL, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { pairedIndex } from '@test/helpers/fixtures';
import { NODE, probed, urlItems, waitParameters, useWaitingImages } from '@test/helpers/waitingImages';

const waiting = useWaitingImages();
const { startWaiting } = waiting;
let mock: MockService;
beforeAll(() => {
	mock = waiting.mock;
});

describe('Wait for Callback: the outputs', () => {
	it('50 items completing in any order: resumed once, every result in input order, paired, routed', async () => {
		mock.configure({ processMs: 20, processJitterMs: 600 });
		const kinds = [SAFE_IMAGE_URL, UNSAFE_IMAGE_URL, REVIEW_IMAGE_URL];
		const urls = Array.from({ length: 50 }, (_, index) =>
			index % 5 === 4 ? mockImageUrl({ safe: true, reject: false, review: false, risk: 99 }, `risky-${index}`) : `${kinds[index % 3]}?n=${index}`,
		);
		const execution = await startWaiting(
			waitParameters({ routeByVerdict: true, reviewOutput: true, riskThreshold: 99, keepInput: true }),
			urlItems(urls),
			{ probes: 4, earlyCalls: 'wait' },
		);
		const run = await execution.finished(100_000);
		expect(run.status).toBe('success');
		expect(execution.resumes).toBe(1);
		expect(execution.webhookThrew).toBe(false);

		// Results completed out of submission order: the service sent each first attempt when its result was
		// ready. Which answers came back within the attempt timeout does not matter (a loaded machine can take
		// longer than that to read 50 results back, and the resume still happens).
		// An attempt is recorded when it ends: the run can finish before the last first attempts have.
		const firstAttempts = await waitFor(
			'the first delivery attempt of every callback to end',
			() => {
				const first = mock.callbacks.filter((attempt) => attempt.attempt === 1);
				return first.length >= 50 ? first : undefined;
			},
			60_000,
			20,
		);
		const completed = [...firstAttempts].sort((a, b) => a.time - b.time).map((attempt) => attempt.moderationId);
		const submitted = mock.submissionLog.map((submission) => submission.id);
		expect(new Set(submitted).size).toBe(50);
		expect([...completed].sort()).toEqual([...submitted].sort());
		expect(completed).not.toEqual(submitted);

		// Outputs in this mode: Timed Out (empty after a callback resume), Safe, Flagged, Review.
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(4);
		const [timedOut, safe, flagged, review] = outputs;
		expect(timedOut).toEqual([]);
		const all = [...safe, ...flagged, ...review];
		expect(all).toHaveLength(50);
		const indexOf = (item: INodeExecutionData) => Number(String(item.json.name).replace('item-', ''));
		// Keep Input Data: each result sits on its own input item, once, in input order within an output.
		expect(all.map(indexOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index));
		for (const items of [safe, flagged, review]) {
			const order = items.map(indexOf);
			expect(order).toEqual([...order].sort((a, b) => a - b));
		}
		const expected = (index: number) =>
			index % 5 === 4 ? 'flagged' : (['safe', 'flagged', 'review'] as const)[index % 3];
		for (const [items, verdict] of [
			[safe, 'safe'],
			[flagged, 'flagged'],
			[review, 'review'],
		] as const) {
			for (const item of items) {
				const index = indexOf(item);
				expect((item.json.moderation as { id: string }).id).toBe(submitted[index]);
				expect(item.json.verdict).toBe(verdict);
				expect(expected(index)).toBe(verdict);
			}
		}
		// n8n re-pairs a resumed node's outputs by position (see WAIT_CALLBACK_OUTPUT): after Safe, Flagged
		// and Review, `$('Start').item` resolves to nothing, never to another item.
		for (const probe of [1, 2, 3]) {
			const seen = probed(run, probe);
			expect(seen.length).toBeGreaterThan(0);
			for (const { own, paired } of seen) {
				expect(own).toMatch(/^item-/);
				if (paired !== own) expect(paired ?? 'nothing').not.toMatch(/^item-/);
			}
		}
	}, 150_000);

	it('without routing: one output, one result per input item at its index, n8n lineage exact', async () => {
		mock.configure({ processMs: 20, processJitterMs: 400 });
		const urls = Array.from({ length: 12 }, (_, index) => `${index % 2 ? UNSAFE_IMAGE_URL : SAFE_IMAGE_URL}?n=${index}`);
		const execution = await startWaiting(waitParameters(), urlItems(urls), { probes: 1, earlyCalls: 'wait' });
		const run = await execution.finished(100_000);
		expect(execution.resumes).toBe(1);
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(1);
		const submitted = mock.submissionLog.map((submission) => submission.id);
		expect(outputs[0].map((item) => item.json.id)).toEqual(submitted);
		expect(outputs[0].map(pairedIndex)).toEqual(Array.from({ length: 12 }, (_, index) => index));
		expect(outputs[0].map((item) => item.json.isSafe)).toEqual(urls.map((_, index) => index % 2 === 0));
		expect(probed(run, 0).map(({ paired }) => paired)).toEqual(urls.map((_, index) => `item-${index}`));
	}, 150_000);

	it('submission failures under On Error: Continue stay paired error items next to the results', async () => {
		const execution = await startWaiting(
			waitParameters({ routeByVerdict: true }),
			urlItems([SAFE_IMAGE_URL, 'not a url', UNSAFE_IMAGE_URL]),
			{ onError: 'continueRegularOutput', earlyCalls: 'wait' },
		);
		const run = await execution.finished(100_000);
		const [timedOut, safe, flagged] = run.outputsOf(NODE);
		expect(timedOut).toEqual([]);
		expect(safe.map((item) => item.json.name)).toEqual(['item-0']);
		expect(flagged).toHaveLength(2);
		expect(flagged[0].json.error).toEqual(expect.stringContaining('Image URL'));
		expect(flagged[1].json).toMatchObject({ name: 'item-2', verdict: 'flagged' });
	}, 150_000);
});
