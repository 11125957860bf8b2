/** Image > Get (get.operation.ts) on a fake context and client: its field, its option and the read. */
import { description, execute, option, toolDescription } from '@package/nodes/ContentModeration/actions/image/get.operation';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

describe('Image > Get, directly', () => {
	it('has a required Image ID field (empty by default) and the Options collection', () => {
		expect(description.map((p) => p.name)).toEqual(['imageId', 'options']);
		expect(description[0]).toMatchObject({ type: 'string', default: '', required: true });
		expect(option.value).toBe('get');
		// An AI Agent picks the tool by this text: it names the verdict it returns.
		expect(toolDescription).toContain('isSafe');
	});

	it('reads GET /image/{id} and adds the id the result lacks', async () => {
		const { run, sent } = fakeRun(() => ({ isSafe: true }));
		const result = await execute.call(executeContext({ imageId: ' img-1 ' }), 3, run);
		expect(result).toEqual({ id: 'img-1', isSafe: true });
		expect(sent).toEqual([{ method: 'GET', path: '/image/img-1', body: undefined, itemIndex: 3 }]);
	});

	it('an empty Image ID fails the item naming the field; nothing is sent', async () => {
		const { run, sent } = fakeRun();
		const error = await rejection(execute.call(executeContext({ imageId: '' }), 0, run));
		expect(error.message).toContain('Image ID');
		expect(sent).toEqual([]);
	});
});
