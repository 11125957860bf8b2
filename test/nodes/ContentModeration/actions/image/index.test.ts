/** Image's operation list (index.ts): what the router runs and the Operation field the editor shows. */
import { description, operations } from '@package/nodes/ContentModeration/actions/image/index';

describe('the Image resource', () => {
	it('offers its operations, moderate by default, each field shown for Image only', () => {
		expect(Object.keys(operations).sort()).toEqual(['get', 'moderate']);
		const [operation, ...fields] = description;
		expect(operation).toMatchObject({ name: 'operation', default: 'moderate', displayOptions: { show: { resource: ['image'] } } });
		expect(fields.length).toBeGreaterThan(0);
		expect(fields.every((f) => f.displayOptions?.show?.resource?.[0] === 'image')).toBe(true);
	});
});
