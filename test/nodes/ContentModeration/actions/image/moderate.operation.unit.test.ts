/** Image > Moderate (moderate.operation.ts) on a fake context and client: its fields, the body it sends, Deferred and Wait. */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as moderate from '@package/nodes/ContentModeration/actions/image/moderate.operation';
import { executeContext, fakeRun, rejection, type SentRequest } from '@test/helpers/operationFakes';

const URL_ = 'https://img.test/cat.png';
const COMPLETE: IDataObject = { isSafe: true, suggestedActions: { reject: false, review: false }, riskScores: { overall: 1 }, nsfwCategories: [] };
const field = (name: string) => moderate.description.find((p) => p.name === name) as INodeProperties;
const option = (name: string) => (field('options').options as INodeProperties[]).find((o) => o.name === name);

describe('Image > Moderate, its fields', () => {
	it('Mode: Immediate by default, a fixed list of four', () => {
		expect(field('mode')).toMatchObject({ type: 'options', default: 'immediate', noDataExpression: true });
		const modes = field('mode').options as INodePropertyOptions[];
		expect(modes.map((m) => m.value)).toEqual(['immediate', 'deferred', 'deferredWait', 'waitCallback']);
		// Wait for Callback's help is built around what this operation submits.
		expect(modes[3].description).toMatch(/^\S.*image/);
		expect(moderate.option.value).toBe('moderate');
		expect(moderate.toolDescription).toContain('isSafe');
	});

	it('Options: Metadata (JSON) defaults to {}, Callback URL only in the Deferred modes, Max Image Size offered', () => {
		expect(option('meta')).toMatchObject({ type: 'json', default: '{}' });
		expect(option('callbackUrl')?.displayOptions).toEqual({ show: { '/mode': ['deferred', 'deferredWait'] } });
		expect(option('callbackUrl')?.description).toMatch(/Deferred/);
		expect(option('maxImageSizeMb')).toBeDefined();
	});

	it('Route by Verdict in Mode Deferred is refused, naming what Deferred returns and the modes that give a verdict', () => {
		const refusal = moderate.verdict.refusal?.call(executeContext({ mode: 'deferred' }), 0);
		expect(refusal?.message).toMatch(/request id$/);
		expect(refusal?.description).toContain('"Immediate" or "Deferred and Wait"');
	});
});

const sendOne = async (parameters: Record<string, unknown>, answer?: (request: SentRequest) => IDataObject) => {
	const { run, sent } = fakeRun(answer);
	const result = await moderate.execute.call(executeContext({ imageUrl: URL_, ...parameters }), 0, run);
	return { result, sent };
};

describe('Image > Moderate, the request', () => {
	it('Immediate: only the image when no option is set; the answer is the output', async () => {
		const { result, sent } = await sendOne({}, () => ({ isSafe: true }));
		expect(sent).toEqual([{ method: 'POST', path: '/image', body: { image: URL_ }, itemIndex: 0 }]);
		expect(result).toEqual({ isSafe: true });
	});

	it('options that are set go under options; Metadata left at {} is not sent', async () => {
		const withMeta = await sendOne({ options: { meta: '{"orderId":"A-17"}', actorId: 'u-1' } });
		const meta = { orderId: 'A-17' };
		expect(withMeta.sent[0].body).toEqual({ image: URL_, options: { meta, metadata: meta, actorId: 'u-1' } });
		const empty = await sendOne({ options: { meta: '{}', actorId: 'u-1' } });
		expect(empty.sent[0].body).toEqual({ image: URL_, options: { actorId: 'u-1' } });
	});

	it('Metadata that is not JSON fails the item naming the field; nothing is sent', async () => {
		const { run, sent } = fakeRun();
		const error = await rejection(moderate.execute.call(executeContext({ imageUrl: URL_, options: { meta: '{oops' } }), 0, run));
		expect(error.message).toContain('Metadata (JSON)');
		expect(sent).toEqual([]);
	});

	it('Deferred and Wait: submits deferred, then reads the result by the id answered', async () => {
		const answer = (r: SentRequest) => (r.method === 'POST' ? { id: 'm-1' } : COMPLETE);
		const { result, sent } = await sendOne({ mode: 'deferredWait' }, answer);
		expect(sent.map((r) => [r.method, r.path, r.body])).toEqual([
			['POST', '/image', { image: URL_, options: { defer: true } }],
			['GET', '/image/m-1', undefined],
		]);
		expect(result).toEqual({ id: 'm-1', ...COMPLETE });
	});

	it('Deferred and Wait answered at once with a complete result: that is the output, nothing is read', async () => {
		// A service that answers a deferred request at once: Wait for Callback takes it so too (pause.ts itemStates).
		const { result, sent } = await sendOne({ mode: 'deferredWait' }, (r) => (r.method === 'POST' ? COMPLETE : { isSafe: false }));
		expect(result).toEqual(COMPLETE);
		expect(sent.map((r) => r.method)).toEqual(['POST']);
	});

	it.each([
		['a 200 still processing', { id: 'm-2', ...COMPLETE, status: 'processing' }, 200],
		['a 202 with a complete body', { id: 'm-2', ...COMPLETE }, 202],
	])('Deferred and Wait answered %s: not a result yet, read by its id', async (_case, answer, status) => {
		const { run, sent } = fakeRun((r) => (r.method === 'POST' ? answer : COMPLETE), (r) => (r.method === 'POST' ? status : 200));
		const result = await moderate.execute.call(executeContext({ imageUrl: URL_, mode: 'deferredWait' }), 0, run);
		expect(sent.map((r) => [r.method, r.path])).toEqual([['POST', '/image'], ['GET', '/image/m-2']]);
		expect(result).toEqual({ id: 'm-2', ...COMPLETE });
	});

	it.each([[{}], [{ id: 42 }], [{ id: '' }]])('Deferred and Wait, answered %j: fails with no id to wait for, reads nothing', async (answer) => {
		// A read would find the result at once: a mutant that reads fails fast instead of polling.
		const { run, sent } = fakeRun((r) => (r.method === 'POST' ? answer : COMPLETE));
		const error = await rejection(moderate.execute.call(executeContext({ imageUrl: URL_, mode: 'deferredWait' }), 0, run));
		expect(error.message).toContain('did not return a moderation ID');
		expect(sent.map((r) => r.method)).toEqual(['POST']);
	});
});
