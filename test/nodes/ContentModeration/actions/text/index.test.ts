/** Text's operation list (index.ts): what the router runs and the Operation field the editor shows. */
import { description, operations } from '@package/nodes/ContentModeration/actions/text/index';

describe('the Text resource', () => {
	it('offers its operations, get by default, each field shown for Text only', () => {
		expect(Object.keys(operations).sort()).toEqual(['delete', 'get', 'moderate']);
		const [operation, ...fields] = description;
		expect(operation).toMatchObject({ name: 'operation', default: 'get', displayOptions: { show: { resource: ['text'] } } });
		expect(fields.length).toBeGreaterThan(0);
		expect(fields.every((f) => f.displayOptions?.show?.resource?.[0] === 'text')).toBe(true);
	});
});
