/**
 * T1 (`BENCH_ONLY=T1`): Text > Moderate (via Queue) at its defaults (Wait for Result, Poll Interval 1 s)
 * with 300 texts at once and 500 ms processing per text, under both readings of a processed queue item
 * (the full result in `moderation`, or only its id, completed with GET /text/{id}). Target: total time
 * <= 2 x (processing + one poll interval + latency). Baseline in the same run: one text alone. Reports the
 * reads per item the service saw.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { startMockService, type MockService, type MockServiceOptions } from '../../dev/mock/server';
import { TEXT_POLL_DEFAULTS } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/actions/text/moderate.operation';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { moderationNode, runWorkflow } from '../helpers/engine';
import { ourNodeType } from './workloads';

const TEXTS = 300;
const PROCESS_MS = 500;
const LATENCY_MS = 50;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);

// The rebuilt mock has one reading of a processed review-queue item (the full text result in `moderation`).
const READINGS: Array<[string, MockServiceOptions]> = [['full', {}]];

function textItems(count: number, tag: string): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => ({
		json: { text: i % 10 === 0 ? `Comment ${tag}-${i}: this fucking thing is shit` : `Comment ${tag}-${i}: what a lovely afternoon in the park` },
	}));
}

let ourNode: ReturnType<typeof ourNodeType> | undefined;

/** One node run over `count` texts: seconds, and the requests the service saw per item. */
async function runTexts(mock: MockService, count: number, tag: string) {
	mock.reset();
	const items = textItems(count, tag);
	const started = process.hrtime.bigint();
	const run = await runWorkflow({
		nodeTypes: { [ACTION_TYPE]: (ourNode ??= ourNodeType()) },
		nodes: [moderationNode({ resource: 'text', operation: 'moderate', text: '={{ $json.text }}' })],
		credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } },
		items,
		mode: 'manual',
	});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const out = run.status === 'success' ? run.outputOf('Content Moderation') : [];
	const ok = out.filter((item, i) => (item.pairedItem as { item: number }).item === i && item.json.content === items[i].json.text && typeof item.json.isSafe === 'boolean');
	if (ok.length !== count) throw new Error(`T1 ${tag}: ${ok.length} of ${count} texts came out as their own moderation (${run.status}: ${run.error?.message})`);
	const count_ = (test: (path: string, method: string) => boolean) => mock.requests.filter((r) => test(r.path, r.method)).length;
	const posts = count_((p, m) => m === 'POST');
	if (posts !== count) throw new Error(`T1 ${tag}: ${posts} POSTs for ${count} texts`);
	return {
		seconds,
		itemReadsPerText: count_((p, m) => m === 'GET' && p.includes('/items/')) / count,
		textReadsPerText: count_((p, m) => m === 'GET' && p.startsWith('/text/')) / count,
		answered429: mock.requests.filter((r) => r.status === 429).length,
	};
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

export async function textBench(): Promise<Record<string, unknown>> {
	const boundSeconds = 2 * (PROCESS_MS / 1000 + TEXT_POLL_DEFAULTS.intervalSeconds + LATENCY_MS / 1000);
	console.log(`\nT1: Text > Moderate at its defaults, ${TEXTS} texts at once, ${PROCESS_MS} ms processing, ${LATENCY_MS} ms latency; target <= ${boundSeconds} s (2 x (processing + poll interval + latency))`);
	const mock = await startMockService({ latencyMs: LATENCY_MS, textProcessMs: PROCESS_MS, record: true });
	const out: Record<string, unknown> = { texts: TEXTS, processMs: PROCESS_MS, latencyMs: LATENCY_MS, pollIntervalSeconds: TEXT_POLL_DEFAULTS.intervalSeconds, boundSeconds };
	try {
		await runTexts(mock, 20, 'warm');
		for (const [reading, options] of READINGS) {
			mock.configure(options);
			const one: number[] = [];
			const all: Array<Awaited<ReturnType<typeof runTexts>>> = [];
			for (let r = 0; r < REPEATS; r++) {
				one.push((await runTexts(mock, 1, `one-${reading}-${r}`)).seconds);
				all.push(await runTexts(mock, TEXTS, `all-${reading}-${r}`));
			}
			const seconds = median(all.map((x) => x.seconds));
			const row = {
				oneTextSeconds: round(median(one)),
				seconds: round(seconds),
				samples: all.map((x) => round(x.seconds)),
				overBound: round(seconds / boundSeconds),
				overOneText: round(seconds / median(one)),
				itemReadsPerText: all.map((x) => round(x.itemReadsPerText)),
				textReadsPerText: all.map((x) => round(x.textReadsPerText)),
				answered429: all.map((x) => x.answered429),
				met: seconds <= boundSeconds,
			};
			out[reading] = row;
			console.log(
				`  ${reading.padEnd(7)} ${TEXTS} texts: ${row.seconds} s median [${row.samples.join(', ')}] = ${row.overBound} x bound (${row.met ? 'met' : 'NOT met'}); one text alone ${row.oneTextSeconds} s (${TEXTS} texts / one = ${row.overOneText}); item reads per text [${row.itemReadsPerText.join(', ')}], GET /text per text [${row.textReadsPerText.join(', ')}]`,
			);
		}
	} finally {
		await mock.stop();
	}
	return out;
}
