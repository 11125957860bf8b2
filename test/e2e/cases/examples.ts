/** Case 7: the other example workflows run as their sticky notes say (so the examples cannot rot). */
import { executeWorkflow } from '../../../dev/n8n/summary';
import { assert, E2eContext } from '../context';

export async function examplesRun(ctx: E2eContext): Promise<string> {
	const url = await executeWorkflow(ctx.stack, ctx.db, 'cmExample01Url00');
	assert(url.status === 'success', `example 01 execution #${url.executionId} status ${url.status}`);
	const published = url.items['Publish'] ?? [];
	const held = url.items['Hold for Review'] ?? [];
	assert(published.length === 2 && held.length === 1, `example 01: ${published.length} published, ${held.length} held (expected 2 and 1)`);
	assert(/violence-gore/.test(held[0].imageUrl) && typeof held[0].overallRisk === 'number', `example 01 held: ${JSON.stringify(held[0])}`);
	assert(/violence_gore/.test(held[0].categories), `example 01 held item lacks its categories: ${JSON.stringify(held[0])}`);

	const bin = await executeWorkflow(ctx.stack, ctx.db, 'cmExample02Bin00');
	assert(bin.status === 'success', `example 02 execution #${bin.executionId} status ${bin.status}`);
	const accepted = bin.items['Accept Upload'] ?? [];
	const rejected = bin.items['Reject Upload'] ?? [];
	assert(
		accepted.length === 1 && accepted[0].fileName === 'holiday-photo.png' && rejected.length === 1 && rejected[0].fileName === 'flyer.png',
		`example 02: accepted ${JSON.stringify(accepted)}, rejected ${JSON.stringify(rejected)}`,
	);

	// Example 04 under both readings of a processed item's status (only `moderation` tells readiness).
	const readings: string[] = [];
	for (const processedStatus of ['completed', 'pending'] as const) {
		ctx.mock.configure({ processedStatus });
		try {
			const queue = await executeWorkflow(ctx.stack, ctx.db, 'cmExample04Queue');
			assert(queue.status === 'success', `example 04 (${processedStatus}) execution #${queue.executionId} status ${queue.status}`);
			const [added] = queue.items['Add to Queue'] ?? [];
			const [read] = queue.items['Read Queue Item'] ?? [];
			const [processed] = queue.items['Processed Item'] ?? [];
			assert(
				added?.id && read?.id === added.id && read.type === 'text' && read.status === processedStatus && typeof read.moderation?.isSafe === 'boolean',
				`example 04 (${processedStatus}): added ${JSON.stringify(added)}, read ${JSON.stringify(read).slice(0, 300)}`,
			);
			assert(
				processed?.itemId === added.id && processed.isSafe === read.moderation.isSafe && (queue.items['Not Processed Yet'] ?? []).length === 0,
				`example 04 (${processedStatus}) did not reach Processed Item: ${JSON.stringify(processed)}`,
			);
			readings.push(`${added.id.slice(0, 8)} read back ${read.status}, isSafe ${String(processed.isSafe)}`);
		} finally {
			ctx.mock.configure({ processedStatus: 'completed' });
		}
	}
	return `01: ${published.length} published/${held.length} held; 02: ${accepted.length} accepted/${rejected.length} rejected; 04: ${readings.join('; ')}`;
}
