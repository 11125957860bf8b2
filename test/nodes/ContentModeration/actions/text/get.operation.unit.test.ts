/** Text > Get (get.operation.ts) on a fake context and client. */
import { description, execute, option, toolDescription, verdict } from '@package/nodes/ContentModeration/actions/text/get.operation';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

describe('Text > Get, directly', () => {
	it('has the Text ID field, Route by Verdict and the Options collection', () => {
		const names = description.map((p) => p.name);
		expect(names[0]).toBe('textId');
		expect(names).toEqual(expect.arrayContaining(['routeByVerdict', 'options']));
		expect(option.value).toBe('get');
		expect(toolDescription).toContain('isSafe');
	});

	it('routes by the result itself (a text result is its own analysis)', () => {
		const result = { isSafe: false };
		expect(verdict.analysisOf(result)).toBe(result);
	});

	it('reads GET /text/{id} and outputs the answer', async () => {
		const { run, sent } = fakeRun(() => ({ id: 't-1', isSafe: true }));
		await expect(execute.call(executeContext({ textId: 't-1' }), 1, run)).resolves.toEqual({ id: 't-1', isSafe: true });
		expect(sent).toEqual([{ method: 'GET', path: '/text/t-1', body: undefined, itemIndex: 1 }]);
	});

	it('an empty Text ID fails the item naming the field; nothing is sent', async () => {
		const { run, sent } = fakeRun();
		expect((await rejection(execute.call(executeContext({ textId: ' ' }), 0, run))).message).toContain('Text ID');
		expect(sent).toEqual([]);
	});
});
