/** Queue's operation list (index.ts): what the router runs and the Operation field the editor shows. */
import { description, operations } from '@package/nodes/ContentModeration/actions/queue/index';

describe('the Queue resource', () => {
	it('offers its operations, addItem by default, each field shown for Queue only', () => {
		expect(Object.keys(operations).sort()).toEqual(['addItem', 'getItem']);
		const [operation, ...fields] = description;
		expect(operation).toMatchObject({ name: 'operation', default: 'addItem', displayOptions: { show: { resource: ['queue'] } } });
		expect(fields.length).toBeGreaterThan(0);
		expect(fields.every((f) => f.displayOptions?.show?.resource?.[0] === 'queue')).toBe(true);
	});
});
