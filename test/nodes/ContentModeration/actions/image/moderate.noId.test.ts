/**
 * Image > Moderate in the modes that wait for a result (Deferred and Wait, Wait for Callback) when the
 * service answers the submission without an id: nothing to wait for. Under On Error: Stop the execution
 * stops there with the node's error; under Continue the item is an error item paired to its input.
 */
import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { moderateImage } from '@test/helpers/parameters';
import { nodeError, output, useMock } from '@test/helpers/nodeRun';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';

const mock = useMock();
let server: ScriptedServer;

beforeAll(async () => {
	// A submission acknowledged without an id, and a harmless result for any read.
	server = await startScriptedServer((request) =>
		request.method === 'POST' ? { status: 202, body: { status: 'queued' } } : { status: 200, body: { isSafe: true } },
	);
});
afterAll(async () => await server.stop());
beforeEach(() => server.requests.splice(0));

const NO_ID = 'The service did not return a moderation ID to wait for';
const modes = [
	['Deferred and Wait', { mode: 'deferredWait', pollInterval: 0.1, waitTimeout: 2 }],
	['Wait for Callback', { mode: 'waitCallback', waitTimeout: 60 }],
] as const;

describe.each(modes)('Image > Moderate, %s, the service answers without an id', (_name, mode) => {
	const parameters = moderateImage({ imageUrl: SAFE_IMAGE_URL, ...mode });

	it('On Error: Stop stops the execution with the node error; nothing is read or waited for', async () => {
		const run = await mock.run(parameters, [{ json: { n: 0 } }, { json: { n: 1 } }], { baseUrl: server.url });
		expect(run.status).toBe('error');
		const error = nodeError(run);
		expect(error.message).toBe(NO_ID);
		expect(error.description).toContain('Use Mode "Immediate" instead');
		expect(server.requests.filter((r) => r.method !== 'POST')).toEqual([]);
	});

	it('On Error: Continue gives one error item per input, paired, and nothing waits', async () => {
		const run = await mock.run(parameters, [{ json: { n: 0 } }, { json: { n: 1 } }], {
			baseUrl: server.url,
			onError: 'continueRegularOutput',
		});
		expect(run.status).toBe('success');
		const items = output(run);
		expect(items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			[NO_ID, { item: 0 }],
			[NO_ID, { item: 1 }],
		]);
		expect(server.requests.filter((r) => r.method !== 'POST')).toEqual([]);
	});
});
