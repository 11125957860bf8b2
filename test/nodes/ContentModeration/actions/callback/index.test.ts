/** Callback's operation list (index.ts): what the router runs and the Operation field the editor shows. */
import { description, operations } from '@package/nodes/ContentModeration/actions/callback/index';

describe('the Callback resource', () => {
	it('offers its operations, receive by default, each field shown for Callback only', () => {
		expect(Object.keys(operations).sort()).toEqual(['receive']);
		const [operation, ...fields] = description;
		expect(operation).toMatchObject({ name: 'operation', default: 'receive', displayOptions: { show: { resource: ['callback'] } } });
		expect(fields.length).toBeGreaterThan(0);
		expect(fields.every((f) => f.displayOptions?.show?.resource?.[0] === 'callback')).toBe(true);
	});
});
