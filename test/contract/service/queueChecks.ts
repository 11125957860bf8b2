/** The contract's queue lines: one item added to CONTENTMOD_QUEUE_ID, read back, and (on a mock) decided. */
import { isObject, keys, last, sameMeta, status, type Check } from './answers';
import { operate, type Target } from './target';

const NO_QUEUE = 'no CONTENTMOD_QUEUE_ID given (the one queue item would go there)';

async function pollItem(target: Target, queueId: string, itemId: string): Promise<Record<string, unknown> | undefined> {
	const deadline = Date.now() + target.waitMs;
	let item: Record<string, unknown> | undefined;
	do {
		const read = await operate(target, { resource: 'queue', operation: 'getItem', queueId, itemId });
		const body = last(read, 'GET', /\/items\//)?.body;
		item = isObject(body) ? body : undefined;
		if (item && item.status !== 'processing') return item;
		// About 30 reads at most, whatever the wait.
		await new Promise((resolve) => setTimeout(resolve, Math.max(500, target.waitMs / 30)));
	} while (Date.now() < deadline);
	return item;
}

export const QUEUE_CHECKS: Check[] = [
	{
		id: 'queue.add',
		assumption: 'Queue > Add Item is answered 200 with {id, status}, status processing or pending',
		async run(target, inputs, memory) {
			if (!target.queueId) return { notChecked: NO_QUEUE };
			const outcome = await operate(target, {
				resource: 'queue',
				operation: 'addItem',
				queueId: target.queueId,
				contentType: 'text',
				text: inputs.text,
				options: { meta: JSON.stringify(inputs.meta) },
			});
			const exchange = last(outcome, 'POST', /^\/queues\//);
			const body = isObject(exchange?.body) ? exchange.body : {};
			if (typeof body.id === 'string') memory.set('queueItemId', body.id);
			const documented = body.status === 'processing' || body.status === 'pending' ? 'processing or pending' : JSON.stringify(body.status);
			return { answer: `${status(exchange)}; body ${keys(exchange?.body)}; status ${documented}` };
		},
	},
	{
		id: 'queue.metadata',
		assumption: "A queue item's metadata comes back with the item (meta) and in its moderation (moderation.meta)",
		async run(target, inputs, memory) {
			const itemId = memory.get('queueItemId');
			if (!target.queueId || !itemId) return { notChecked: target.queueId ? 'Add Item gave no id' : NO_QUEUE };
			const item = await pollItem(target, target.queueId, itemId);
			if (!item) return { notChecked: 'Get Item read no item' };
			memory.set('queueItemStatus', String(item.status));
			const moderation = isObject(item.moderation) ? item.moderation : undefined;
			return {
				answer: `read as ${JSON.stringify(item.status)}; meta: ${sameMeta(item.meta, inputs.meta)}; moderation.meta: ${moderation ? sameMeta(moderation.meta, inputs.meta) : 'no moderation'}`,
			};
		},
	},
	{
		id: 'queue.decision',
		assumption: "A person's decision reaches the account webhook as {event: \"queue.review.completed\", data: the item}, its metadata included",
		async run(target, inputs, memory) {
			const itemId = memory.get('queueItemId');
			if (!target.queueId || !itemId) return { notChecked: target.queueId ? 'Add Item gave no id' : NO_QUEUE };
			if (!target.accountWebhook) return { notChecked: 'the account webhook does not point at this run (CONTRACT_ACCOUNT_WEBHOOK)' };
			if (!target.dashboard) return { notChecked: `a person decides in the dashboard: decide item ${itemId} of queue ${target.queueId} during a run to check it` };
			if (memory.get('queueItemStatus') !== 'pending') return { notChecked: `the item is ${memory.get('queueItemStatus')}, not pending` };
			await target.dashboard.decide(target.queueId, itemId, 'rejected');
			const delivery = await target.receiver.waitFor(
				(d) => d.path.endsWith('/account') && isObject(d.body) && isObject(d.body.data) && d.body.data.id === itemId,
				target.waitMs,
			);
			if (!delivery) return { answer: `nothing arrived within ${target.waitMs / 1000} s` };
			const data = delivery.body.data as Record<string, unknown>;
			const moderation = isObject(data.moderation) ? data.moderation : undefined;
			return {
				answer: `event ${JSON.stringify(delivery.body.event)}; data ${keys(data)}; meta: ${sameMeta(data.meta, inputs.meta)}; moderation.meta: ${moderation ? sameMeta(moderation.meta, inputs.meta) : 'no moderation'}`,
			};
		},
	},
];
