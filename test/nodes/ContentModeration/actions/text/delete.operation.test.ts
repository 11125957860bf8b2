/** Text > Delete, through n8n-core's engine against the mock. */
import { output, useMock } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 30 });

const UNKNOWN_ID = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';

describe('Text > Delete', () => {
	it('reports a delete the service refused as that error, never as deleted', async () => {
		const run = await mock.run({ resource: 'text', operation: 'delete', textId: UNKNOWN_ID }, undefined, {
			onError: 'continueRegularOutput',
		});
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.json.deleted).toBeUndefined();
		expect(item.json.error).toMatch(/^The Content Moderation Service answered 404/);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(mock.service.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`DELETE /text/${UNKNOWN_ID} 404`,
		]);
	});
});
