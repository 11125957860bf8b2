/**
 * Deferred and Wait's fields (pollResult.ts) as the editor shows them, and the Poll Interval a run keeps to:
 * pollResult on a fake execute context and client, under jest's fake timers (no real waits).
 */
import type { IDataObject, INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { pollProperties, pollResult, pollUntil } from '@package/nodes/ContentModeration/actions/image/pollResult';
import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

const description = new ContentModeration().description;
const property = (name: string) => pollProperties.find((p) => p.name === name) as INodeProperties;

describe('Poll Interval and Wait Timeout in the editor', () => {
	/** The properties the editor shows for Image > Moderate in `mode`, as n8n decides it. */
	function shown(mode: string): INodeProperties[] {
		const saved: INodeParameters = { resource: 'image', operation: 'moderate', mode };
		const node: INode = { id: '1', name: 'n', type: description.name, typeVersion: 2, position: [0, 0], parameters: saved };
		const all = NodeHelpers.getNodeParameters(description.properties, saved, true, false, node, description)!;
		return description.properties.filter((p) => NodeHelpers.displayParameter(all, p, node, description));
	}
	const names = (mode: string) => shown(mode).map((p) => p.name);

	it('shows both only in Mode "Deferred and Wait"', () => {
		expect(names('deferredWait')).toEqual(expect.arrayContaining(['pollInterval', 'waitTimeout']));
		for (const mode of ['immediate', 'deferred']) expect(names(mode)).not.toEqual(expect.arrayContaining(['pollInterval']));
		for (const mode of ['immediate', 'deferred']) expect(names(mode)).not.toEqual(expect.arrayContaining(['waitTimeout']));
		// Wait for Callback has a Wait Timeout of its own, but nothing to poll.
		expect(names('waitCallback')).not.toEqual(expect.arrayContaining(['pollInterval']));
	});

	it('accepts a Poll Interval from 0.1 s in tenths, a Wait Timeout from 1 s', () => {
		expect(property('pollInterval').typeOptions).toEqual({ minValue: 0.1, numberPrecision: 1 });
		expect(property('waitTimeout').typeOptions).toEqual({ minValue: 1 });
	});
});

describe('the Poll Interval a run keeps to', () => {
	beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
	afterEach(() => jest.useRealTimers());

	/** Runs pollResult on an image that never finishes; returns the times (ms from the start) of its reads. */
	async function pollTimes(parameters: IDataObject, runFor: number): Promise<number[]> {
		const start = Date.now();
		const times: number[] = [];
		const { run } = fakeRun((request) => {
			if (request.method === 'GET') times.push(Date.now() - start);
			return { id: 'img-1' }; // still processing: no isSafe yet
		});
		const polled = rejection(pollResult.call(executeContext(parameters), 0, run.client, 'img-1'));
		await jest.advanceTimersByTimeAsync(runFor);
		const error = await polled;
		expect(error.message).toMatch(/^The moderation img-1 was not ready after/);
		return times;
	}

	it('reads the result every Poll Interval (the field by its own name) until Wait Timeout passes', async () => {
		const parameters = { [property('pollInterval').name]: 0.5, [property('waitTimeout').name]: 1 };
		expect(await pollTimes(parameters, 1_000)).toEqual([0, 500, 1_000]);
	});

	it('an empty Poll Interval (0) means the 2 s default, not as fast as allowed', async () => {
		expect(await pollTimes({ pollInterval: 0, waitTimeout: 4 }, 4_000)).toEqual([0, 2_000, 4_000]);
	});
});

describe('pollUntil at the deadline', () => {
	it('sleeps whole intervals (seconds, not milliseconds) between checks', async () => {
		const clock = new FakeClock();
		let checks = 0;
		const polled = pollUntil({ intervalSeconds: 2, timeoutSeconds: 10 }, async () => (++checks === 2 ? 'ready' : undefined), clock);
		await flush();
		await clock.advance(1_999);
		expect(checks).toBe(1);
		await clock.advance(1);
		expect([await polled, checks]).toEqual(['ready', 2]);
	});

	it('a check that ends exactly at the deadline is the last one', async () => {
		const clock = new FakeClock();
		let checks = 0;
		const polled = pollUntil(
			{ intervalSeconds: 1, timeoutSeconds: 2 },
			async () => {
				checks++;
				clock.time += 2_000; // this read took the whole Wait Timeout
				return undefined;
			},
			clock,
		);
		await flush();
		await clock.advance(0);
		expect([await polled, checks]).toEqual([undefined, 1]);
	});
});
