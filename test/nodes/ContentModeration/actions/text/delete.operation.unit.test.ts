/** Text > Delete (delete.operation.ts) on a fake context and client. */
import { description, execute, option, toolDescription } from '@package/nodes/ContentModeration/actions/text/delete.operation';
import { textIdProperty } from '@package/nodes/ContentModeration/actions/text/textId';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

describe('Text > Delete, directly', () => {
	it('has the Text ID field and the Options collection', () => {
		expect(description.map((p) => p.name)).toEqual([textIdProperty.name, 'options']);
		expect(option.value).toBe('delete');
		// An AI Agent is told what a delete returns.
		expect(toolDescription).toContain('deleted');
	});

	it('sends DELETE /text/{id} and outputs the id with deleted: true', async () => {
		const { run, sent } = fakeRun();
		await expect(execute.call(executeContext({ textId: 't-1' }), 2, run)).resolves.toEqual({ id: 't-1', deleted: true });
		expect(sent).toEqual([{ method: 'DELETE', path: '/text/t-1', body: undefined, itemIndex: 2 }]);
	});

	it('an empty Text ID fails the item naming the field; nothing is sent', async () => {
		const { run, sent } = fakeRun();
		expect((await rejection(execute.call(executeContext({}), 0, run))).message).toContain('Text ID');
		expect(sent).toEqual([]);
	});
});
