/**
 * completeResult (inbound/readBack.ts): the trigger's callback as a complete result, taken as it came or read
 * back, and what each failed read becomes. The client is scripted; the read-again pauses run on jest's fake timers.
 */
import type { IDataObject } from 'n8n-workflow';

import { completeResult } from '@package/nodes/ContentModeration/inbound/readBack';
import type { CallbackBody } from '@package/nodes/ContentModeration/inbound/envelope';
import type { ApiClient } from '@package/nodes/ContentModeration/transport/client';
import { imageResult, textResult } from '@test/helpers/callbackBodies';

/** A client whose every read answers `answer` (a function throws instead); the paths it was asked for. */
function scripted(answer: { statusCode: number; body: unknown } | (() => never)) {
	const paths: string[] = [];
	const client = {
		request: async ({ path }: { path: string }) => {
			paths.push(path);
			if (typeof answer === 'function') answer();
			return { headers: {}, ...answer };
		},
	} as unknown as ApiClient;
	return { client, paths };
}

const failing = (error: IDataObject) =>
	scripted(() => {
		throw error;
	});

const partial: CallbackBody = {
	id: 'r1',
	isSafe: true,
	status: 'processing',
	note: 'mine',
};

describe('taken as it came', () => {
	it('a review decision with a Callback Secret: as it came, nothing read; without one it is read', async () => {
		const body: CallbackBody = { id: 'q1', status: 'accepted', accepted: true };
		const { client, paths } = scripted({
			statusCode: 200,
			body: imageResult('q1'),
		});
		expect(await completeResult(body, client, 'queueItem', false)).toEqual({
			result: body,
		});
		expect(paths).toEqual([]);
		expect(await completeResult(body, client, 'queueItem', true)).toEqual({
			result: imageResult('q1'),
		});
		expect(paths).toEqual(['/image/q1']);
	});

	it('a complete result with a Callback Secret: as it came, nothing read', async () => {
		const body = imageResult('c1') as CallbackBody;
		const { client, paths } = scripted({
			statusCode: 200,
			body: imageResult('c1', { isSafe: false }),
		});
		const completed = await completeResult(body, client, 'image', false);
		expect(completed).toEqual({ result: body });
		expect(paths).toEqual([]);
	});

	it('a complete result without an id: as it came, its warning saying what that means', async () => {
		const body = {
			...imageResult(),
			id: null,
			warning: 'The callback carries no id',
		} as CallbackBody;
		const { client, paths } = scripted({
			statusCode: 200,
			body: imageResult(),
		});
		expect(await completeResult(body, client, 'image', false)).toEqual({
			result: {
				...body,
				warning:
					'The callback carries no id, so it cannot be matched to its submission. A delivery of it again starts the workflow again. Its fields are as the service sent them.',
			},
		});
		expect(paths).toEqual([]);
	});
});

describe('nothing to read it by', () => {
	it('no id: unfinished for good, saying what the callback lacks, or that it came without a secret; nothing read', async () => {
		const { client, paths } = scripted({
			statusCode: 200,
			body: imageResult(),
		});
		expect(await completeResult({ id: null, isSafe: true }, client, 'image', false)).toEqual({
			unfinished:
				'The callback carries no complete result (no suggestedActions.reject and .review in the callback) and no id to read it by',
			final: true,
		});
		expect(await completeResult({ ...imageResult(), id: null } as CallbackBody, client, 'image', true)).toEqual({
			unfinished:
				'The callback carries no complete result (accepted without a Callback Secret) and no id to read it by',
			final: true,
		});
		expect(paths).toEqual([]);
	});

	it('no client: unfinished for good, naming Fetch Full Result and the credential', async () => {
		expect(await completeResult(partial, undefined, 'image', false)).toEqual({
			unfinished:
				'The callback carries no complete result (its status says it is unfinished in the callback), and Fetch Full Result is off or no credential is selected',
			final: true,
		});
		expect(await completeResult(imageResult('d1') as CallbackBody, undefined, 'image', true)).toEqual({
			unfinished:
				'The callback carries no complete result (accepted without a Callback Secret), and Fetch Full Result is off or no credential is selected',
			final: true,
		});
	});
});

describe('read back', () => {
	it("with a Callback Secret: the read's verdict fields over the callback's other fields, from the kind's endpoint", async () => {
		const read = textResult('r1', { isSafe: false });
		const { client, paths } = scripted({ statusCode: 200, body: read });
		expect(await completeResult(partial, client, 'text', false)).toEqual({
			result: { ...read, note: 'mine' },
		});
		expect(paths).toEqual(['/text/r1']);
	});

	it('without one: the read alone, whatever the callback said, even a complete result', async () => {
		const read = imageResult('r1', { isSafe: false });
		const { client, paths } = scripted({ statusCode: 200, body: read });
		expect(await completeResult(partial, client, undefined, true)).toEqual({
			result: read,
		});
		expect(await completeResult(imageResult('r1') as CallbackBody, client, 'image', true)).toEqual({ result: read });
		expect(paths).toEqual(['/image/r1', '/image/r1']);
	});

	it('still unfinished after the reads: unfinished, not final, with the read-back message', async () => {
		jest.useFakeTimers();
		try {
			const { client, paths } = scripted({
				statusCode: 202,
				body: { id: 'r1', status: 'processing' },
			});
			const completing = completeResult(partial, client, 'image', false);
			await jest.advanceTimersByTimeAsync(5_000);
			expect(await completing).toEqual({
				unfinished: 'The service has not finished moderation r1 yet (HTTP 202, status "processing")',
			});
			expect(paths.length).toBeGreaterThan(1);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('a failed read', () => {
	it.each([
		[{ httpCode: '503' }, 'HTTP 503'],
		[{ httpCode: '500' }, 'HTTP 500'],
		[{ httpCode: '429' }, 'HTTP 429'],
		[{ httpCode: '404' }, 'HTTP 404'],
		[{ message: 'socket hang up' }, 'no answer in time'],
		[{ httpCode: '' }, 'no answer in time'],
		[{ httpCode: 'ETIMEDOUT' }, 'no answer in time'],
	])('%j with a Callback Secret: unfinished (%s), not final: a delivery again may read it', async (error, failed) => {
		expect(await completeResult(partial, failing(error).client, 'image', false)).toEqual({
			unfinished: `Reading moderation r1 failed (${failed})`,
			failedRead: true,
		});
	});

	it.each([
		[{ message: 'Forbidden', httpCode: '403', description: 'no access' }, 'HTTP 403'],
		[{ httpCode: '401' }, 'HTTP 401'],
		[{ httpCode: '499' }, 'HTTP 499'],
	])('%j with a Callback Secret: unfinished (%s), not final: nothing delivered or remembered', async (error, failed) => {
		expect(await completeResult(partial, failing(error).client, 'image', false)).toEqual({
			unfinished: `Reading moderation r1 failed (${failed})`,
			failedRead: true,
		});
	});

	// A wrong Base URL, a proxy's page or a malformed key answer 400 too: each can be fixed before the next retry.
	it('a 400 with a Callback Secret: unfinished, not final', async () => {
		expect(await completeResult(partial, failing({ httpCode: '400' }).client, 'image', false)).toEqual({
			unfinished: 'Reading moderation r1 failed (HTTP 400)',
			failedRead: true,
		});
	});

	it('without a Callback Secret a 4xx but 429 means the service has no such result; 429, 5xx and 3xx are unfinished', async () => {
		for (const httpCode of ['404', '400', '403', '499']) {
			expect(await completeResult(partial, failing({ message: 'Not found', httpCode }).client, 'image', true)).toEqual({
				unknown: true,
			});
		}
		// A 3xx (a redirect not followed) is no refusal of the id either.
		for (const httpCode of ['429', '503', '500', '302']) {
			expect(await completeResult(partial, failing({ httpCode }).client, 'image', true)).toEqual({
				unfinished: `Reading moderation r1 failed (HTTP ${httpCode})`,
				failedRead: true,
			});
		}
		expect(await completeResult(partial, failing({ message: 'socket hang up' }).client, 'image', true)).toEqual({
			unfinished: 'Reading moderation r1 failed (no answer in time)',
			failedRead: true,
		});
	});
});
