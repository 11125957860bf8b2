/**
 * Case 41: an execution stopped in n8n gives its places in the process's limiter back at once, and its
 * waiting items leave the queue. n8n aborts the node's execution cancel signal when an execution is
 * stopped; the limiter is shared by every execution that talks to the same service in the process.
 * A run of 1000 images at the defaults takes every place the shared limit has (20 in a fresh process, or
 * what earlier cases taught it; 3 s per answer, so nothing changes it before the stop); it is stopped; a
 * run of 5 images started right after sends all 5 at once instead of waiting the 3 s for the stopped run's
 * answers. Started and stopped through n8n's REST API, as the editor's buttons do.
 */
import { join } from 'node:path';
import { readWorkflow } from '../../../dev/n8n/stack';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';

const WORKFLOWS = join(__dirname, '..', 'workflows');
const STOPPED = readWorkflow(join(WORKFLOWS, 'stop-many.json'));
const AFTER = readWorkflow(join(WORKFLOWS, 'after-stop.json'));
const LATENCY_MS = 3000;

const posts = (ctx: E2eContext, since: number, tag: string) =>
	ctx.mock.requests
		.slice(since)
		.filter((r) => r.method === 'POST' && r.path === '/image' && String((r.body as { image?: string }).image).includes(`/${tag}/`));

export async function stopExecution(ctx: E2eContext): Promise<string> {
	ctx.mock.configure({ latencyMs: LATENCY_MS });
	try {
		const since = ctx.mock.requests.length;
		const before = ctx.mock.traffic.inFlight;
		const stopped = await ctx.stack.rest.startManualRun(STOPPED.id);
		// The service records a request once answered; requests in flight are counted as they arrive. The run
		// has taken the whole limit when the count holds still (no answer comes back for 3 s to grow it).
		let last = -1;
		await waitFor('the run of 1000 to fill the shared limit', () => {
			const now = ctx.mock.traffic.inFlight - before;
			const still = now > 0 && now === last;
			last = now;
			return still ? true : undefined;
		}, 30_000, 300);
		const stop = await ctx.stack.rest.request('POST', `/rest/executions/${stopped}/stop`);
		assert(stop.status === 200, `POST /rest/executions/${stopped}/stop answered ${stop.status}: ${stop.text.slice(0, 300)}`);
		const stoppedAt = Date.now();

		const after = await ctx.stack.rest.startManualRun(AFTER.id);
		const sent = await waitFor('the run of 5 to send its 5', () => {
			const p = posts(ctx, since, 'after-stop');
			return p.length >= 5 ? p : undefined;
		}, 30_000, 50);
		await waitFor(`execution ${after} to finish`, async () => ((await ctx.db.execution(after)).status === 'success' ? true : undefined), 30_000);
		await sleep(LATENCY_MS + 500); // the stopped run's answers are in: nothing more may go out for it
		const byStopped = posts(ctx, since, 'stopped-run');
		const sentByStopped = byStopped.length;
		const sentBeforeStop = byStopped.filter((r) => r.time <= stoppedAt).length;
		const status = (await ctx.db.execution(stopped)).status;
		// The stopped run held the whole shared limit (what earlier cases taught it, maybe under 5): that many
		// of the run after it may go out at once; any more wait for its own answers, not the stopped run's.
		const room = Math.min(5, sentBeforeStop);
		const roomSentAfterMs = sent.map((r) => r.time).sort((a, b) => a - b)[room - 1] - stoppedAt;

		assert(sentBeforeStop > 0 && sentBeforeStop < 1000, `the run of 1000 had sent ${sentBeforeStop} when it was stopped`);
		assert(sentByStopped === sentBeforeStop, `the stopped run sent ${sentByStopped - sentBeforeStop} more after the stop (its waiters did not leave)`);
		assert(status === 'canceled', `the stopped execution's status is ${status}`);
		assert(
			roomSentAfterMs < LATENCY_MS - 1000,
			`the run after the stop sent image ${room} of 5 (the stopped run held ${sentBeforeStop} places) ${roomSentAfterMs} ms after the stop: it waited for the stopped run's answers (${LATENCY_MS} ms), its places were not given back`,
		);
		return `#${stopped} stopped with ${sentBeforeStop} of 1000 sent, the shared limit (status ${status}, nothing sent after); #${after} sent ${room} of its 5 within ${roomSentAfterMs} ms of the stop (the stopped run's answers took ${LATENCY_MS} ms)`;
	} finally {
		ctx.mock.configure({ latencyMs: 0 });
	}
}
