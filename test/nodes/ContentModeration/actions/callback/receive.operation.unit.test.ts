/**
 * Callback > Receive (receive.operation.ts) on a fake context, client and run claims: the token, the body, repeats,
 * the test URL, Accept Without a Secret, Fetch Full Result and the completion rule, without n8n's engine.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	description,
	execute,
	SUB_WORKFLOW_HINT,
	toolDescription,
} from '@package/nodes/ContentModeration/actions/callback/receive.operation';
import { NO_ITEM } from '@package/nodes/ContentModeration/actions/operation';
import type { RunClaims } from '@package/nodes/ContentModeration/inbound/runClaims';
import {
	acceptWithoutSecretOption,
	SECRET_REQUIRED_DESCRIPTION,
	secretRequiredMessage,
	TEST_URL_NOTE,
} from '@package/nodes/ContentModeration/inbound/secretRule';
import { systemClock } from '@package/nodes/ContentModeration/helpers/clock';
import { imageResult, queueItem } from '@test/helpers/callbackBodies';
import { executeContext, fakeRun, rejection, type SentRequest } from '@test/helpers/operationFakes';

const SECRET = 'cb-secret-unit-4b7e9a';
const ID = 'img-31';
const JSON_HEADERS = { 'content-type': 'application/json' };
const ACCEPT = 'options.acceptWithoutSecret';
const AGAIN = 'should the service deliver the callback again, the verdict is passed on then';

const completed = (data: IDataObject) => ({ event: 'moderation.completed', data });
/** An image result the completion rule refuses: no boolean isSafe. */
const partial = (extra: IDataObject = {}) => {
	const { isSafe: _isSafe, ...rest } = imageResult(ID, extra);
	return rest;
};

interface Call {
	body?: unknown;
	query?: IDataObject;
	headers?: IDataObject;
	/** The credential's Callback Secret ('' when none). */
	secret?: string;
	mode?: string;
	parameters?: IDataObject;
	/** What the run's claims answer for the item's completion. */
	turn?: 'pass' | 'repeat';
	/** The service's answer to a read back. */
	answer?: (request: SentRequest) => IDataObject;
}

/** Item 2 of the input, as n8n's Webhook node outputs it ({headers, query, body}). */
function receive({
	body,
	query = { token: SECRET },
	headers = JSON_HEADERS,
	secret = SECRET,
	mode = 'webhook',
	parameters = {},
	turn = 'pass',
	answer = () => ({}),
}: Call) {
	const item = { headers, query, params: {}, ...(body === undefined ? {} : { body }) };
	const ctx = executeContext(parameters, {
		getInputData: () => [{ json: {} }, { json: {} }, { json: item }],
		getMode: () => mode,
		getWorkflow: () => ({ id: 'wf-1' }),
	});
	const { run, sent } = fakeRun(answer);
	const hints: Array<string | undefined> = [];
	const claims = { turn: async () => turn } as unknown as RunClaims;
	Object.assign(run.client, { callbackSecret: async () => secret });
	const outcome = execute.call(ctx, 2, { ...run, claims, hints });
	return { outcome, sent, hints };
}

describe('Callback > Receive description', () => {
	const byName = (name: string) => description.find((p) => p.name === name) as INodeProperties;

	it('offers the notice, Fetch Full Result (on), Pass On Repeated Deliveries (off) and the options', () => {
		expect(description.map((p) => p.name)).toEqual(['receiveNotice', 'fetchFullResult', 'passOnRepeats', 'options']);
		// n8n shows a notice's displayName; its value is never read.
		expect(byName('receiveNotice')).toMatchObject({ type: 'notice', default: '' });
		// The code reads them with the same fallbacks (true, false): a new node behaves as shown.
		expect(byName('fetchFullResult')).toMatchObject({ type: 'boolean', default: true });
		expect(byName('passOnRepeats')).toMatchObject({ type: 'boolean', default: false });
		expect(byName('options').options).toContainEqual(acceptWithoutSecretOption);
		expect(toolDescription).toMatch(/moderation callback/);
	});
});

describe('Callback > Receive, directly', () => {
	it('passes a complete result on with its event; nothing is read and no hint is added', async () => {
		const data = imageResult(ID);
		const { outcome, sent, hints } = receive({ body: completed(data) });
		expect(await outcome).toEqual({ ...data, event: 'moderation.completed' });
		expect(sent).toEqual([]);
		expect(hints).toEqual([]);
	});

	it('a wrong token is refused, saying how to give the Callback Secret', async () => {
		const { outcome } = receive({ body: completed(imageResult(ID)), query: { token: 'not-the-secret-value' } });
		const error = await rejection(outcome);
		expect(error.message).toBe('Callback refused: Invalid callback token');
		expect(error.description).toContain("Add ?token=<Callback Secret> to the Webhook node's Production URL");
		expect(error).toMatchObject({ context: { itemIndex: 2 } });
	});

	it('a call without a token is refused when the credential has a secret', async () => {
		const { outcome } = receive({ body: completed(imageResult(ID)), query: {} });
		expect((await rejection(outcome)).message).toMatch(/^Callback refused: Missing callback token/);
	});

	it('without a strong secret, a production call is refused naming the field and how to fill it', async () => {
		for (const secret of ['', 'short-secret']) {
			const { outcome } = receive({ body: completed(imageResult(ID)), secret, query: {} });
			const error = await rejection(outcome);
			expect(error.message).toBe(secretRequiredMessage());
			expect(error.message).toContain('"Callback Secret" field');
			expect(error.description).toBe(SECRET_REQUIRED_DESCRIPTION);
			expect(error).toMatchObject({ context: { itemIndex: 2 } });
		}
	});

	it("the editor's test URL accepts a call without a secret, and says so in the output", async () => {
		const data = imageResult(ID);
		const { outcome } = receive({ body: completed(data), secret: '', query: {}, mode: 'manual' });
		expect(await outcome).toEqual({ ...data, event: 'moderation.completed', callbackSecretNotice: TEST_URL_NOTE });
	});

	it('a secured call carries no test URL notice', async () => {
		const { outcome } = receive({ body: completed(imageResult(ID)), mode: 'manual' });
		expect(await outcome).not.toHaveProperty('callbackSecretNotice');
	});

	it('an item without a body fails, pointing to the Webhook node', async () => {
		const error = await rejection(receive({}).outcome);
		expect(error.message).toBe('The input item has no body');
		expect(error.description).toContain("Connect n8n's Webhook node (HTTP Method POST) directly before this node");
		expect(error).toMatchObject({ context: { itemIndex: 2 } });
	});

	it('a body that is no moderation callback fails, saying why and pointing to the Webhook node', async () => {
		const error = await rejection(receive({ body: [1, 2] }).outcome);
		expect(error.message).toMatch(/^Not a moderation callback: Body must be a JSON object/);
		expect(error.description).toContain("Connect n8n's Webhook node");
	});

	it('a JSON body the Webhook node parsed into a string is refused; the same text sent as text/plain is read', async () => {
		const text = JSON.stringify(completed(imageResult(ID)));
		const asJson = await rejection(receive({ body: text }).outcome);
		expect(asJson.message).toBe('Not a moderation callback: Body is a JSON string: expected the callback as a JSON object');
		const asText = receive({ body: text, headers: { 'content-type': 'text/plain' } });
		expect(await asText.outcome).toMatchObject({ id: ID, event: 'moderation.completed' });
	});

	it('in a sub-workflow (mode integrated) the output carries the hint that repeats are not told apart', async () => {
		const { outcome, hints } = receive({ body: completed(imageResult(ID)), mode: 'integrated' });
		await outcome;
		expect(hints).toEqual([SUB_WORKFLOW_HINT]);
		expect(SUB_WORKFLOW_HINT).toMatch(/sub-workflow/);
	});
});

describe('repeated deliveries', () => {
	it('a repeat outputs nothing by default', async () => {
		const { outcome, sent } = receive({ body: completed(imageResult(ID)), turn: 'repeat' });
		expect(await outcome).toBe(NO_ITEM);
		expect(sent).toEqual([]);
	});

	it('with Pass On Repeated Deliveries, a repeat is output marked duplicate: true', async () => {
		const data = imageResult(ID);
		const { outcome } = receive({ body: completed(data), turn: 'repeat', parameters: { passOnRepeats: true } });
		expect(await outcome).toEqual({ ...data, event: 'moderation.completed', duplicate: true });
	});

	it('a first delivery is not marked duplicate', async () => {
		const { outcome } = receive({ body: completed(imageResult(ID)), parameters: { passOnRepeats: true } });
		expect(await outcome).not.toHaveProperty('duplicate');
	});
});

describe('Accept Callbacks Without a Secret', () => {
	const stranger = (data: IDataObject, more: Partial<Call> = {}) =>
		receive({ body: completed(data), secret: '', query: {}, parameters: { [ACCEPT]: true }, ...more });

	it("reads the result back by id: nothing the stranger sent reaches the output but its id", async () => {
		const read = imageResult(ID, { isSafe: false, meta: { postId: 'service' } });
		const sentData = imageResult(ID, { isSafe: true, injected: 'by a stranger' });
		const { outcome, sent } = stranger(sentData, { answer: () => read });
		expect(await outcome).toEqual({ ...read, event: 'moderation.completed' });
		expect(sent).toEqual([{ method: 'GET', path: `/image/${ID}`, body: undefined, itemIndex: 2 }]);
	});

	it('reads back even with Fetch Full Result off', async () => {
		const read = imageResult(ID);
		const { outcome } = stranger(partial(), { answer: () => read, parameters: { [ACCEPT]: true, fetchFullResult: false } });
		expect(await outcome).toEqual({ ...read, event: 'moderation.completed' });
	});

	it('a result without an id is refused: there is nothing to read back', async () => {
		const { outcome, sent } = stranger(imageResult(ID, { id: undefined }));
		const error = await rejection(outcome);
		expect(error.message).toBe('The callback carries no ID to read its result back with');
		expect(error.description).toBe(acceptWithoutSecretOption.description);
		expect(error).toMatchObject({ context: { itemIndex: 2 } });
		expect(sent).toEqual([]);
	});

	it('a review decision cannot be read back, so it is not taken without the secret', async () => {
		const body = { event: 'queue.review.completed', data: queueItem('accepted') };
		const { outcome, sent } = receive({ body, secret: '', query: {}, parameters: { [ACCEPT]: true } });
		const error = await rejection(outcome);
		expect(error.message).toBe(
			'A queue.review.completed callback cannot be read back, so it is not taken without a Callback Secret',
		);
		expect(error.description).toBe(acceptWithoutSecretOption.description);
		expect(sent).toEqual([]);
	});
});

describe('the completion rule', () => {
	it('a review decision with the secret is passed on as it came, nothing read', async () => {
		const data = queueItem('rejected', 'q-5');
		const { outcome, sent } = receive({ body: { event: 'queue.review.completed', data } });
		expect(await outcome).toEqual({ ...data, event: 'queue.review.completed' });
		expect(sent).toEqual([]);
	});

	it("an incomplete result is read back (Fetch Full Result on by default): the read's verdict, the callback's other fields", async () => {
		const read = { id: ID, isSafe: false, status: 'completed', suggestedActions: { reject: true, review: false }, riskScores: { overall: 90 }, nsfwCategories: [] };
		const { outcome, sent } = receive({ body: completed({ ...partial(), status: 'processing' }), answer: () => read });
		expect(await outcome).toEqual({ ...partial(), ...read, event: 'moderation.completed' });
		expect(sent.map((request) => request.path)).toEqual([`/image/${ID}`]);
	});

	it('Fetch Full Result off: an incomplete result fails the item, saying why; a delivery again cannot help', async () => {
		const { outcome, sent } = receive({ body: completed(partial()), parameters: { fetchFullResult: false } });
		const error = await rejection(outcome);
		expect(error.message).toBe(
			'The callback carries no complete result (no boolean isSafe in the callback), and Fetch Full Result is off',
		);
		expect(error.description).toMatch(/^The callback carried no complete result .*Nothing was passed on\. Route this error/);
		expect(error).toMatchObject({ context: { itemIndex: 2 } });
		expect(sent).toEqual([]);
	});

	it('an incomplete result without an id fails the item: nothing to read it by', async () => {
		const { outcome, sent } = receive({ body: completed(partial({ id: undefined })) });
		const error = await rejection(outcome);
		expect(error.message).toBe(
			'The callback carries no complete result (no boolean isSafe in the callback) and no ID to read it by',
		);
		expect(error.description).toContain('Nothing was passed on. Route this error (On Error)');
		expect(error.description).not.toContain(AGAIN);
		expect(sent).toEqual([]);
	});

	it('a result still incomplete when read back fails the item; a delivery again passes the verdict on', async () => {
		jest.spyOn(systemClock, 'sleep').mockResolvedValue(undefined);
		try {
			const { outcome, sent } = receive({ body: completed(partial()), answer: () => ({ id: ID, status: 'processing' }) });
			const error = await rejection(outcome);
			expect(error.message).toBe(`The service has not finished moderation ${ID} yet (HTTP 200, status "processing")`);
			expect(error.description).toContain(`Nothing was passed on nor remembered: ${AGAIN}, but the Webhook node has already answered it`);
			expect(error).toMatchObject({ context: { itemIndex: 2 } });
			expect(sent.length).toBeGreaterThan(0);
		} finally {
			jest.restoreAllMocks();
		}
	});
});
