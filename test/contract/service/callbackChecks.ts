/** The contract's lines on what comes back later (callbacks, the account webhook) and on what is not provoked. */
import { idField, image, isObject, last, status, type Check } from './answers';
import { exchangesSince } from './observe';
import { underPath, type Delivery } from './receiver';
import { operate } from './target';

const NO_CALLBACK = 'no CONTRACT_CALLBACK_URL given (a public URL that reaches this run, see the README)';

const carries = (id: string, path: string) => (d: Delivery) =>
	d.path.endsWith(path) && isObject(d.body) && isObject(d.body.data) && d.body.data.id === id;

export const CALLBACK_CHECKS: Check[] = [
	{
		id: 'callback.body',
		assumption:
			'A deferred result is POSTed to the Callback URL as JSON {event: "moderation.completed", data: the result}, data.id the submission\'s id, the URL\'s ?token= kept',
		async run(target, inputs, memory) {
			if (!target.callbackUrl) return { notChecked: NO_CALLBACK };
			const callbackUrl = underPath(target.callbackUrl, 'request');
			const outcome = await operate(target, image(inputs, { mode: 'deferred', options: { callbackUrl } }));
			const answer = last(outcome, 'POST', /^\/image$/)?.body;
			const id = isObject(answer) && typeof answer.id === 'string' ? answer.id : undefined;
			if (!id) return { notChecked: `the submission gave no id (${outcome.error?.message ?? 'no error'})` };
			memory.set('callbackImageId', id);
			const delivery = await target.receiver.waitFor(carries(id, '/request'), target.waitMs);
			if (!delivery) return { answer: `nothing arrived within ${target.waitMs / 1000} s` };
			const data = delivery.body.data as Record<string, unknown>;
			const token = delivery.query.get('token') === target.callbackSecret ? 'kept' : 'missing';
			const type = /^application\/json\b/i.test(delivery.contentType) ? 'application/json' : JSON.stringify(delivery.contentType);
			return {
				answer: `${delivery.method} ${type}; event ${JSON.stringify(delivery.body.event)}; data.${idField(data)} (the submission's); isSafe: ${typeof data.isSafe}; token ${token}`,
			};
		},
	},
	{
		id: 'callback.account',
		assumption:
			'A deferred result also goes to the account webhook when one is set (the vendor: "later in a webhook that you have set up"); with a Callback URL as well, to both',
		async run(target, _inputs, memory) {
			if (!target.callbackUrl) return { notChecked: NO_CALLBACK };
			if (!target.accountWebhook) return { notChecked: 'the account webhook does not point at this run (CONTRACT_ACCOUNT_WEBHOOK)' };
			const without = memory.get('deferredImageId');
			const withUrl = memory.get('callbackImageId');
			if (!without || !withUrl) return { notChecked: 'the deferred submissions above gave no ids' };
			// Both results are finished by now (the Callback URL's delivery came): give the account webhook a little longer.
			const wait = Math.min(target.waitMs, 5_000);
			const [a, b] = await Promise.all([
				target.receiver.waitFor(carries(without, '/account'), wait),
				target.receiver.waitFor(carries(withUrl, '/account'), wait),
			]);
			const said = (delivery: Delivery | undefined) =>
				delivery ? `delivered as ${JSON.stringify((delivery.body as Record<string, unknown>).event)}` : 'not delivered';
			return { answer: `without a Callback URL: ${said(a)}; with one: ${said(b)}` };
		},
	},
	{
		id: 'refusal.503',
		assumption: 'A 503 with a JSON body (or any 429) means the POST was not acted on, so the node sends it again',
		async run(target) {
			const refused = exchangesSince(0, `${target.baseUrl}/`).filter((e) => e.status === 429 || e.status === 503);
			const seen = refused.length === 0 ? 'none' : refused.map((e) => `${e.method} ${new URL(e.url).pathname} ${e.status}`).join(', ');
			return { notChecked: `cannot be provoked with harmless inputs; 429 and 503 answers seen in this run: ${seen}` };
		},
	},
	{
		id: 'size.limit',
		assumption: "A body over the service's limit is refused 413 before it is acted on (Max Image Size defaults to 20 MB; the mock's limit is 10 MiB)",
		async run(target) {
			if (!target.sizeProbe) return { notChecked: 'sends an 11 MB body of zero bytes: set CONTRACT_SIZE_PROBE=1 to check it' };
			const zeros = Buffer.alloc(8 * 1024 * 1024).toString('base64');
			const outcome = await operate(target, { resource: 'image', operation: 'moderate', inputType: 'base64', imageBase64: zeros, mode: 'immediate' });
			return { answer: status(last(outcome, 'POST', /^\/image$/)) };
		},
	},
];
