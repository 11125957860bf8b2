/**
 * T1 (`BENCH_ONLY=T1`): Text > Moderate at its defaults (Immediate: one `POST /text` per
 * text, the result in the answer), 300 texts at once in one node run, each answered after 500 ms of
 * processing (the mock's `textModerateMs`) plus 50 ms latency.
 *
 * Target: total <= 1.2 x (processing + latency) x the round trips the shared limiter needs for 300 sends
 * from the level it starts the run at, + n8n's fixed cost of a 300-item run. The limiter's slow start
 * sends in rounds (a round's answers are all read before the next goes out) that triple from 20 up to
 * 1000, so a fresh n8n process needs 4 round trips (20 + 60 + 180 + 40) and a process that already learned
 * the service (>= 300) needs one; 1.2 leaves 20 % per round for reading its answers and releasing the next.
 * The fixed cost (the engine building, evaluating and collecting 300 items) is not the limiter's: it is
 * measured in the same repeat as n8n's HTTP Request node doing the same 300 `POST /text` in one round, minus
 * that round trip (0 when `BENCH_SKIP_HTTP_REQUEST=1`, a stricter target).
 *
 * Rows, in the same run and on the same mock: 300 texts with a fresh limiter (the first run after n8n
 * starts: the target's row), 300 texts with the limiter's learned level (the next run), one text alone,
 * and n8n's HTTP Request node doing the same `POST /text` for all 300 (it sends every item at once).
 * Each row counts the requests the service saw per text.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { startMockService, type MockService } from '../../dev/mock/server';
import { INITIAL_LIMIT, SLOW_START_STEP } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/adaptiveLimit';
import { SHARED_CAP } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';
import { limiters, serviceKey } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/registry';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { moderationNode, runWorkflow } from '../helpers/engine';
import { loadHttpRequestNode, ourNodeType, runHttpRequestNodeWith, type HttpRequestKit } from './workloads';

const TEXTS = 300;
const PROCESS_MS = 500;
const LATENCY_MS = 50;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** Room for n8n's engine and the node around the round trips. */
export const OVERHEAD = 1.2;

/**
 * Round trips a slow-start limiter needs to send `count` requests when each round waits for the last
 * one's answers: rounds of `start`, then x(1 + SLOW_START_STEP) per round, never above `cap`.
 */
export function slowStartRounds(count: number, start: number, growth = 1 + SLOW_START_STEP, cap = SHARED_CAP): number {
	if (!(start >= 1) || !(growth >= 1) || !(cap >= 1)) throw new RangeError('start, growth and cap must be >= 1');
	let rounds = 0;
	let sent = 0;
	let limit = Math.min(Math.floor(start), cap);
	while (sent < count) {
		sent += limit;
		rounds++;
		limit = Math.min(Math.floor(limit * growth), cap);
	}
	return rounds;
}

/** The target in seconds for `count` texts from a limiter at `startLimit`, plus n8n's fixed cost. */
export function textTargetSeconds(count: number, startLimit: number, processMs: number, latencyMs: number, fixedSeconds = 0): number {
	return (OVERHEAD * ((processMs + latencyMs) * slowStartRounds(count, startLimit))) / 1000 + Math.max(0, fixedSeconds);
}

function textItems(count: number, tag: string): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => ({
		json: {
			text: i % 10 === 0 ? `Comment ${tag}-${i}: this fucking thing is shit` : `Comment ${tag}-${i}: what a lovely afternoon in the park`,
		},
	}));
}

let ourNode: ReturnType<typeof ourNodeType> | undefined;

type Runner = 'node' | 'httpRequest';

interface Sample {
	seconds: number;
	startLimit: number;
	endLimit: number;
	postTextPerText: number;
	readsPerText: number;
	answered429: number;
	peakInFlight: number;
}

/** One node run over `count` texts: seconds, the limiter's level before and after, and what the service saw. */
async function runTexts(mock: MockService, runner: Runner, count: number, tag: string, kit?: HttpRequestKit): Promise<Sample> {
	mock.reset();
	mock.traffic.peakInFlight = 0;
	const items = textItems(count, tag);
	const limiter = () => limiters.limiterFor(serviceKey(mock.url, mock.token)).limit;
	const startLimit = limiter();
	const started = process.hrtime.bigint();
	let out: INodeExecutionData[];
	let failure = '';
	if (runner === 'httpRequest') {
		const run = await runHttpRequestNodeWith(kit!, mock, items, undefined, undefined, {
			path: '/text',
			jsonBody: '={{ JSON.stringify({ text: $json.text }) }}',
		});
		out = run.out;
		failure = `${run.status}: ${run.error}`;
	} else {
		const run = await runWorkflow({
			nodeTypes: { [ACTION_TYPE]: (ourNode ??= ourNodeType()) },
			nodes: [
				moderationNode({
					resource: 'text',
					operation: 'moderate',
					text: '={{ $json.text }}',
				}),
			],
			credentials: {
				contentModerationApi: { baseUrl: mock.url, accessToken: mock.token },
			},
			items,
			mode: 'manual',
		});
		out = run.status === 'success' ? run.outputOf('Content Moderation') : [];
		failure = `${run.status}: ${run.error?.message}`;
	}
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	// The result's `original` (its `content` may be masked).
	const ok = out.filter(
		(item, i) =>
			(item.pairedItem as { item: number }).item === i && item.json.original === items[i].json.text && typeof item.json.isSafe === 'boolean',
	);
	if (ok.length !== count) throw new Error(`T1 ${tag}: ${ok.length} of ${count} texts came out as their own moderation (${failure})`);
	const countOf = (test: (path: string, method: string) => boolean) => mock.requests.filter((r) => test(r.path, r.method)).length;
	const postText = countOf((p, m) => m === 'POST' && p === '/text');
	const posts = countOf((_p, m) => m === 'POST');
	if (posts !== count) throw new Error(`T1 ${tag}: ${posts} POSTs for ${count} texts`);
	return {
		seconds,
		startLimit,
		endLimit: limiter(),
		postTextPerText: postText / count,
		readsPerText: countOf((_p, m) => m === 'GET') / count,
		answered429: mock.requests.filter((r) => r.status === 429).length,
		peakInFlight: mock.traffic.peakInFlight,
	};
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function summary(samples: Sample[], target?: (s: Sample, repeat: number) => number) {
	const seconds = median(samples.map((x) => x.seconds));
	const targets = target ? samples.map((x, r) => target(x, r)) : [];
	return {
		seconds: round(seconds),
		samples: samples.map((x) => round(x.seconds)),
		startLimit: samples.map((x) => x.startLimit),
		endLimit: samples.map((x) => x.endLimit),
		peakInFlight: samples.map((x) => x.peakInFlight),
		postTextPerText: samples.map((x) => round(x.postTextPerText)),
		readsPerText: samples.map((x) => round(x.readsPerText)),
		answered429: samples.map((x) => x.answered429),
		...(target
			? {
					targetSeconds: targets.map((t) => round(t)),
					overTarget: samples.map((x, i) => round(x.seconds / targets[i])),
					met: samples.every((x, i) => x.seconds <= targets[i]),
				}
			: {}),
	};
}

export async function textBench(): Promise<Record<string, unknown>> {
	const coldTarget = textTargetSeconds(TEXTS, INITIAL_LIMIT, PROCESS_MS, LATENCY_MS);
	console.log(
		`\nT1: Text > Moderate (Immediate, POST /text), ${TEXTS} texts at once, ${PROCESS_MS} ms processing, ${LATENCY_MS} ms latency; ` +
			`target <= ${OVERHEAD} x (processing + latency) x limiter rounds (${round(coldTarget)} s from a fresh limiter) + n8n's fixed cost (HTTP Request's run minus its round trip)`,
	);
	// textModerateMs: the work of POST /text before it answers.
	const mock = await startMockService({ latencyMs: LATENCY_MS, textModerateMs: PROCESS_MS, record: true });
	let kit: HttpRequestKit | undefined;
	if (process.env.BENCH_SKIP_HTTP_REQUEST !== '1') kit = loadHttpRequestNode();
	const out: Record<string, unknown> = {
		texts: TEXTS,
		processMs: PROCESS_MS,
		latencyMs: LATENCY_MS,
		overhead: OVERHEAD,
		targetFreshLimiterSeconds: round(coldTarget),
	};
	const rows: Record<string, Sample[]> = {
		fresh: [],
		learned: [],
		one: [],
		httpRequest: [],
	};
	try {
		await runTexts(mock, 'node', 20, 'warm');
		for (let r = 0; r < REPEATS; r++) {
			resetProcessState();
			rows.one.push(await runTexts(mock, 'node', 1, `one-${r}`));
			resetProcessState();
			rows.fresh.push(await runTexts(mock, 'node', TEXTS, `fresh-${r}`));
			rows.learned.push(await runTexts(mock, 'node', TEXTS, `learned-${r}`));
			if (kit) rows.httpRequest.push(await runTexts(mock, 'httpRequest', TEXTS, `http-${r}`, kit));
		}
	} finally {
		await mock.stop();
		resetProcessState();
	}
	// n8n's fixed cost of a 300-item run, per repeat: HTTP Request's one round minus its round trip.
	const fixed = (r: number) => (rows.httpRequest[r] ? rows.httpRequest[r].seconds - (PROCESS_MS + LATENCY_MS) / 1000 : 0);
	out.fixedSeconds = rows.httpRequest.map((_x, r) => round(fixed(r)));
	const target = (s: Sample, r: number) => textTargetSeconds(TEXTS, s.startLimit, PROCESS_MS, LATENCY_MS, fixed(r));
	const one = median(rows.one.map((x) => x.seconds));
	const http = rows.httpRequest.length > 0 ? median(rows.httpRequest.map((x) => x.seconds)) : undefined;
	const labels: Record<string, string> = {
		fresh: `POST /text, ${TEXTS} texts, fresh limiter`,
		learned: `POST /text, ${TEXTS} texts, learned limiter`,
		one: 'POST /text, one text alone',
		httpRequest: `HTTP Request POST /text, ${TEXTS} texts`,
	};
	for (const [name, samples] of Object.entries(rows)) {
		if (samples.length === 0) continue;
		const row = {
			...summary(samples, name === 'fresh' || name === 'learned' ? target : undefined),
			overOneText: round(median(samples.map((x) => x.seconds)) / one),
			...(http
				? {
						overHttpRequest: round(median(samples.map((x) => x.seconds)) / http),
					}
				: {}),
		};
		out[name] = row;
		const met =
			'met' in row
				? ` = [${row.overTarget!.join(', ')}] x target [${row.targetSeconds!.join(', ')}] s (${row.met ? 'met' : 'NOT met'})`
				: '';
		console.log(
			`  ${labels[name].padEnd(44)} ${row.seconds} s median [${row.samples.join(', ')}]${met}; / one text ${row.overOneText}${'overHttpRequest' in row ? `, / HTTP Request ${row.overHttpRequest}` : ''}; ` +
				`limit ${row.startLimit.join('/')} -> ${row.endLimit.join('/')}, peak in flight ${row.peakInFlight.join('/')}; ` +
				`POST /text per text ${row.postTextPerText.join('/')}, GET per text ${row.readsPerText.join('/')}, 429s ${row.answered429.join('/')}`,
		);
	}
	return out;
}
