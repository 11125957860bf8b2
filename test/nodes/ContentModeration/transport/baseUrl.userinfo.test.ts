/**
 * A user name and password in the credential's Base URL, through n8n-core's engine: refused before any
 * request, with an error that says what to remove, and the password nowhere in the run (every error
 * property, output item, description, stack) nor in what n8n logs, under On Error too.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import { SAFE_TEXT } from '@dev/mock/fixtures';
import { LoggerProxy } from 'n8n-workflow';

import { loadCore } from '@test/helpers/engine/core';
import { everyString, findLeaks } from '@test/helpers/leaks';
import { nodeError, output, useMock } from '@test/helpers/nodeRun';

const mock = useMock();
// n8n sets up its LoggerProxy with the first execution: one run first, so that the spies below see its calls.
beforeAll(async () => {
	await mock.run({ resource: 'text', operation: 'get', textId: 'warm-up' });
});
const PASSWORD = 'proxy-pass-5150-quokka';
const moderate = { resource: 'text', operation: 'moderate', text: SAFE_TEXT };

/** A port nothing listens on: what made the old error name the whole Base URL. */
async function closedPort(): Promise<number> {
	const server = createServer().listen(0, '127.0.0.1');
	await new Promise((resolve) => server.once('listening', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

const leaks = (value: unknown) => findLeaks(value, [PASSWORD, `moderator:${PASSWORD}`]);

/**
 * What `run` made n8n log: LoggerProxy (the engine's lines) and ErrorReporter.error, whose log line is
 * the reported error's message, stack and causes (n8n-core errors/error-reporter.js).
 */
async function logLines<T>(run: () => Promise<T>): Promise<{ result: T; lines: string }> {
	const logged: unknown[] = [];
	const keep = (...args: unknown[]) => void logged.push(args);
	const { core } = await loadCore();
	const spies = [
		...(['debug', 'info', 'warn', 'error'] as const).map((level) => jest.spyOn(LoggerProxy, level).mockImplementation(keep)),
		jest.spyOn(core.ErrorReporter.prototype, 'error').mockImplementation(keep),
	];
	try {
		return { result: await run(), lines: everyString(logged).filter((text) => text !== 'length').join('\n') };
	} finally {
		for (const spy of spies) spy.mockRestore();
	}
}

describe('a user name and password in the Base URL', () => {
	it('is refused before any request, naming what to remove, and the password shows nowhere', async () => {
		const baseUrl = mock.service.url.replace('http://', `http://moderator:${PASSWORD}@`);
		const { result: run, lines } = await logLines(() => mock.run(moderate, undefined, { baseUrl }));
		// n8n logs the node's error message: the log holds the refusal, not the password.
		expect(lines).toContain('holds a user name or password');
		expect(leaks(lines)).toEqual([]);
		expect(mock.service.requests).toEqual([]);
		const error = nodeError(run);
		expect(error.message).toContain('holds a user name or password (user:password@): remove it');
		expect(error.context?.itemIndex).toBe(0);
		expect(leaks(run.run)).toEqual([]);
	});

	it.each(['continueRegularOutput', 'continueErrorOutput'] as const)('On Error %s: one error item, paired, without the password', async (onError) => {
		const baseUrl = `http://moderator:${PASSWORD}@127.0.0.1:${await closedPort()}`;
		const { result: run, lines } = await logLines(() => mock.run(moderate, [{ json: {} }, { json: {} }], { baseUrl, onError }));
		expect(lines).toContain('Running node "Content Moderation" finished');
		expect(leaks(lines)).toEqual([]);
		const items = onError === 'continueErrorOutput' ? run.outputOf('Content Moderation', 1) : output(run);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(String(items[0].json.error)).toContain('holds a user name or password');
		expect(leaks(run.run)).toEqual([]);
	});

	it('the lines n8n logs for the failed run (at an address nothing answers) hold no password', async () => {
		const baseUrl = `http://moderator:${PASSWORD}@127.0.0.1:${await closedPort()}`;
		const { result: run, lines } = await logLines(() => mock.run(moderate, undefined, { baseUrl }));
		expect(leaks(lines)).toEqual([]);
		expect(lines).toContain(nodeError(run).message);
	});

	it('a Base URL that does not parse is not repeated when it holds an @', async () => {
		const run = await mock.run(moderate, undefined, { baseUrl: `moderator:${PASSWORD}@127.0.0.1` });
		expect(nodeError(run).message).toBe('The Base URL of the Content Moderation API credential must start with http:// or https://');
		expect(leaks(run.run)).toEqual([]);
	});
});
