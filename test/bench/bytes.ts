/**
 * The byte budget, in a child process (mock service in another process), run by run.ts (`--only bytes`):
 *   `bytes.ts base64 <default|fixed20>`: 120 images of 4 MB as base64 text in the items (BENCH_BYTES_ITEMS,
 *     BENCH_BYTES_IMAGE_MB), Image > Moderate with Input Type Base64, 300 ms latency; peak RSS over the
 *     baseline (VmHWM after clear_refs) and peak Buffer bytes (1 ms sampler) while the node runs.
 *   `bytes.ts beside <binary|url>`: 800 ms latency; a run of 150 binary images of 1 MB, and 1.5 s after it
 *     began sending, once it holds 3/4 of the byte budget, a one-image execution with a binary image of
 *     1 MB (or its URL): how long the one-image execution took.
 *   `bytes.ts beside <http-binary|http-url>`: the same beside the same bulk run, sent by n8n's own nodes: Make
 *     Images, Extract From File (binary to base64 in `image`) and HTTP Request posting `{"image": ...}` (or
 *     the URL) to /image with the bearer header. Every case reports each node's time (n8n's run data).
 * Runnable alone: `node --expose-gc --import tsx test/bench/bytes.ts base64 default`. Prints one JSON line last.
 * `bytesBench()` (run.ts) runs each case twice, each in its own child, and checks the targets below.
 */
import { join } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { ACTION_TYPE } from '../../dev/n8n/package';
import { ServiceLimiter } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';
import { limiters } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/registry';
import { loadNodeType, moderateUrlParameters, moderationNode, runWorkflow } from '../helpers/engine';
import { childCheck } from './harness';
import { startMockProcess } from './mockProcess';
import { watchProbe, type Split } from './sendPath';
import { image, imagesNode, MB, measureBatch } from './peak';
import { IMAGE_URL_CALL, imageItems, loadHttpRequestNode, nodesBaseDir, ourNodeType, runHttpRequestNodeWith, type HttpRequestKit, type Target } from './workloads';

const ITEMS = Number(process.env.BENCH_BYTES_ITEMS ?? 120);
const IMAGE_MB = Number(process.env.BENCH_BYTES_IMAGE_MB ?? 4);
const BULK = 150;
/** Targets: Buffers at most twice the 64 MB budget, RSS growth at most three times; beside: <= 1.3 x the URL case. */
const MAX_BUFFERS_MB = 128;
const MAX_GROWTH_MB = 192;
const MAX_BESIDE_RATIO = 1.3;
const mb = (n: number) => Number((n / MB).toFixed(1));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Our node; `onStart` is told when a run's execute begins. */
function ourNode(onStart: (context: IExecuteFunctions) => void = () => {}): INodeType {
	const real = ourNodeType();
	const wrapped = Object.create(real) as INodeType;
	wrapped.execute = async function (this: IExecuteFunctions) {
		onStart(this);
		return await real.execute!.call(this);
	};
	return wrapped;
}

/** Image > Moderate of the images a Make Images node put into `count` items (binary or base64). */
async function moderateImages(target: Target, count: number, bytes: Buffer, as: 'binary' | 'base64', options: IDataObject, node: INodeType) {
	const input = as === 'binary' ? { inputType: 'binary', binaryPropertyName: 'data' } : { inputType: 'base64', imageBase64: '={{ $json.image }}' };
	const run = await runWorkflow({
		nodes: [
			{ name: 'Make Images', type: 'bench.makeImages', typeVersion: 1, parameters: {} },
			moderationNode({ resource: 'image', operation: 'moderate', mode: 'immediate', ...input, options: options as never }),
		],
		credentials: { contentModerationApi: { baseUrl: target.url, accessToken: target.token } },
		nodeTypes: { [ACTION_TYPE]: node, 'bench.makeImages': imagesNode(count, bytes, as) },
	});
	const out = run.status === 'success' ? run.outputOf('Content Moderation') : [];
	if (out.length !== count || out.some((item) => typeof item.json.hash !== 'string')) {
		throw new Error(`expected ${count} results, got ${out.length}: ${run.error?.message ?? ''}`);
	}
	return run.runData;
}

/** The one image sent by n8n's own nodes: HTTP Request, after Make Images and Extract From File if binary. */
async function httpRequestSmall(target: Target, small: string, bytes: Buffer, kit = loadHttpRequestNode()) {
	const extract = loadNodeType(join(nodesBaseDir(), 'dist', 'nodes', 'Files', 'ExtractFromFile', 'ExtractFromFile.node.js'), 'ExtractFromFile');
	const call = small === 'http-url' ? IMAGE_URL_CALL : {
		path: '/image',
		jsonBody: '={\n  "image": "{{ $json.image }}"\n}',
		before: {
			nodes: [
				{ name: 'Make Images', type: 'bench.makeImages', typeVersion: 1, parameters: {} },
				{ name: 'Extract From File', type: 'n8n-nodes-base.extractFromFile', typeVersion: 1.1, parameters: { operation: 'binaryToPropery', binaryPropertyName: 'data', destinationKey: 'image', options: {} } },
			],
			nodeTypes: { 'bench.makeImages': imagesNode(1, bytes, 'binary'), 'n8n-nodes-base.extractFromFile': extract },
		},
	};
	const run = await runHttpRequestNodeWith(kit, target, imageItems(1, 'beside'), undefined, undefined, call);
	if (run.out.length !== 1 || typeof run.out[0].json.hash !== 'string') throw new Error(`HTTP Request: ${run.status} ${run.error ?? ''}`);
	return run.runData!;
}

interface Timed {
	/** When the first acquire began and got its permit, the request was handed to n8n, and it answered. */
	asked?: number;
	permitted?: number;
	sent?: number;
	answered?: number;
	/** Requests the small run's node handed to n8n (more than one: it was answered 429/503 and sent again). */
	sends: number;
	/** When the other runs' requests got their permits. */
	others: number[];
	claimed?: boolean;
}

/** Times the first limiter share opened once `armed()` holds: its wait in acquire (place and bytes). */
function timeFirstAcquire(armed: () => boolean): Timed {
	const timed: Timed = { sends: 0, others: [] };
	const open = ServiceLimiter.prototype.openShare;
	ServiceLimiter.prototype.openShare = function (this: ServiceLimiter, ...args: Parameters<typeof open>) {
		const share = open.apply(this, args);
		const mine = armed() && !timed.claimed;
		timed.claimed ||= mine;
		return {
			acquire: async (bytes?: number) => {
				const asked = Date.now();
				const permit = await share.acquire(bytes);
				if (!mine) timed.others.push(Date.now());
				else if (timed.permitted === undefined) Object.assign(timed, { asked, permitted: Date.now() });
				return permit;
			},
		};
	};
	return timed;
}

async function base64Peak(target: Target, setting: string) {
	const options = setting === 'fixed20' ? { concurrency: 20 } : {};
	const bytes = image(IMAGE_MB * MB);
	// Warm-up: loads modules and JITs the paths, as in memory.ts.
	await moderateImages(target, 3, image(64 * 1024), 'base64', options, ourNode());
	let measured: Awaited<ReturnType<typeof measureBatch>>['measurement'] | undefined;
	const real = ourNodeType();
	const node = Object.create(real) as INodeType;
	node.execute = async function (this: IExecuteFunctions) {
		const { measurement, value } = await measureBatch(async () => await real.execute!.call(this));
		measured = measurement;
		return value;
	};
	await moderateImages(target, ITEMS, bytes, 'base64', options, node);
	const m = measured!;
	const peak = m.peakHwm ?? m.peakSampled;
	return {
		scenario: 'base64',
		setting,
		items: ITEMS,
		imageMB: IMAGE_MB,
		baselineRssMB: mb(m.baseline),
		peakRssMB: mb(peak),
		growthMB: mb(peak - m.baseline),
		peakBuffersMB: mb(m.peakBuffers),
		nodeSeconds: Number((m.ms / 1000).toFixed(2)),
		summary: `${ITEMS} x ${IMAGE_MB} MB base64, ${setting}: RSS ${mb(m.baseline)} -> ${mb(peak)} MB (growth ${mb(peak - m.baseline)} MB), peak Buffers ${mb(m.peakBuffers)} MB, ${(m.ms / 1000).toFixed(1)} s`,
	};
}

/** The one-image execution of case `small`; its n8n run data. */
async function smallRun(target: Target, small: string, bytes: Buffer, node: INodeType, kit?: HttpRequestKit) {
	if (kit) return await httpRequestSmall(target, small, bytes, kit);
	if (small === 'binary') return await moderateImages(target, 1, bytes, 'binary', {}, node);
	const run = await runWorkflow({
		nodes: [moderationNode(moderateUrlParameters())],
		credentials: { contentModerationApi: { baseUrl: target.url, accessToken: target.token } },
		nodeTypes: { [ACTION_TYPE]: node },
		items: imageItems(1, 'beside'),
	});
	if (run.status !== 'success') throw new Error(`small run: ${run.error?.message}`);
	return run.runData;
}

async function beside(target: Target, small: string) {
	const oneMb = image(MB);
	// 3 bytes longer than the bulk run's: its request is told apart on the socket, for every case alike.
	const smallImage = image(MB + 3);
	const socket: Split = {};
	let bulkLength = 0;
	watchProbe((length) => length > MB && length !== (bulkLength ||= length) && socket.start === undefined, () => socket);
	// Every case's nodes loaded and run once before (a 64 KB image), so no case pays its first run's costs.
	const kit = small.startsWith('http') ? loadHttpRequestNode() : undefined;
	await smallRun(target, small, image(64 * 1024), ourNode(), kit);
	resetProcessState();
	let smallBegan = false;
	const wait = timeFirstAcquire(() => smallBegan);
	let bulkStarted!: () => void;
	const started = new Promise<void>((r) => (bulkStarted = r));
	const bulkBegan = Date.now();
	const bulk = moderateImages(target, BULK, oneMb, 'binary', {}, ourNode(bulkStarted));
	await started;
	await pause(1500);
	// The case is the bulk run holding the byte budget, which a loaded machine reaches later (at most 20 s more).
	const until = Date.now() + 20_000;
	while (limiters.bytes.bytesInFlight < 0.75 * limiters.bytes.maxBytes && Date.now() < until) await pause(10);
	const bulkHeldMB = mb(limiters.bytes.bytesInFlight);
	const t0 = Date.now();
	// The node's request through n8n (encoding, transfer, the service's answer); from the acquire to it: the body's build.
	const smallNode = ourNode((context) => {
		smallBegan = true;
		const send = context.helpers.httpRequestWithAuthentication;
		context.helpers.httpRequestWithAuthentication = async function (this: IExecuteFunctions, ...args: Parameters<typeof send>) {
			wait.sent ??= Date.now();
			wait.sends++;
			const answer: unknown = await send.apply(this, args);
			wait.answered ??= Date.now();
			return answer;
		};
	});
	const runData = await smallRun(target, small, smallImage, smallNode, kit);
	const smallSeconds = (Date.now() - t0) / 1000;
	// Each node's own time (n8n's run data, the same for every case); `node`: the one that sends.
	const nodes = Object.fromEntries(Object.entries(runData).map(([name, [task]]) => [name, task.executionTime / 1000]));
	const nodeSeconds = nodes['Content Moderation'] ?? nodes['HTTP Request'];
	const span = (from?: number, to?: number) => (from === undefined || to === undefined ? undefined : (to - from) / 1000);
	const waitSeconds = span(wait.asked, wait.permitted);
	const buildSeconds = span(wait.permitted, wait.sent);
	const roundTripSeconds = span(wait.sent, wait.answered);
	// Bulk requests let go within 300 ms before the small one's permit: the burst it went out with.
	const sentWith = wait.permitted === undefined ? undefined : wait.others.filter((t) => t <= wait.permitted! && t > wait.permitted! - 300).length;
	// Every case: its request from the socket's start to the answer's headers, and bulk permits in the 300 ms before it.
	const socketSeconds = span(socket.start, socket.headers);
	const socketWith = socket.start === undefined ? undefined : wait.others.filter((t) => t <= socket.start! && t > socket.start! - 300).length;
	await bulk;
	const bulkSeconds = (Date.now() - bulkBegan) / 1000;
	const split = Object.entries(nodes).map(([name, s]) => `${name} ${s.toFixed(2)}`).join(', ');
	return {
		scenario: 'beside',
		small,
		smallSeconds: Number(smallSeconds.toFixed(2)),
		nodeSeconds,
		nodes,
		waitSeconds,
		buildSeconds,
		roundTripSeconds,
		sends: wait.sends,
		sentWith,
		socketSeconds,
		socketWith,
		bulkHeldMB,
		bulkSeconds: Number(bulkSeconds.toFixed(2)),
		summary: `one ${small} image beside ${BULK} x 1 MB binary (holding ${bulkHeldMB} MB): ${smallSeconds.toFixed(2)} s; ${split} s${waitSeconds === undefined ? '' : `; its limiter wait ${waitSeconds.toFixed(3)} s, body ${buildSeconds?.toFixed(3)} s, request ${roundTripSeconds?.toFixed(2)} s (${wait.sends} sent, ${sentWith} bulk requests in the 300 ms before)`}${socketSeconds === undefined ? '' : `; on the socket ${socketSeconds.toFixed(2)} s to the answer (${socketWith} bulk permits in the 300 ms before)`} (the bulk run ${bulkSeconds.toFixed(1)} s)`,
	};
}

async function main() {
	const [scenario, setting] = process.argv.slice(2);
	const latencyMs = scenario === 'beside' ? 800 : 300;
	const { url, token, child } = await startMockProcess({ latencyMs });
	try {
		const target = { url, token };
		if (scenario === 'base64') console.log(JSON.stringify(await base64Peak(target, setting ?? 'default')));
		else if (scenario === 'beside') console.log(JSON.stringify(await beside(target, setting ?? 'binary')));
		else throw new Error(`unknown scenario ${scenario}: base64 or beside`);
	} finally {
		child.kill();
	}
}

/** Each case twice, one child each; the medians against the targets. */
export async function bytesBench(): Promise<Record<string, unknown>> {
	const runs: Record<string, Array<Record<string, unknown>>> = {};
	const cases: Array<[string, string]> = [['base64', 'default'], ['base64', 'fixed20'], ['beside', 'binary'], ['beside', 'url'], ['beside', 'http-binary'], ['beside', 'http-url']];
	console.log('\nBytes: 120 base64 images of 4 MB; one image beside 150 binary images of 1 MB (child processes)...');
	for (let repeat = 0; repeat < 2; repeat++) {
		for (const [scenario, setting] of cases) {
			const out = await childCheck('bytes.ts', [scenario, setting]);
			(runs[`${scenario} ${setting}`] ??= []).push(out);
			console.log(`  ${String(out.summary)}`);
		}
	}
	const worst = (key: string, field: string) => Math.max(...runs[key].map((r) => Number(r[field])));
	const ratio = (field: string, a = 'binary', b = 'url') => runs[`beside ${a}`].map((r, i) => Number(r[field]) / Number(runs[`beside ${b}`][i][field]));
	const ratios = ratio('smallSeconds');
	const nodeRatios = ratio('nodeSeconds');
	// The same job by n8n's own nodes beside the same bulk run: what a body costs there, and ours against it.
	const httpRatios = ratio('smallSeconds', 'http-binary', 'http-url');
	const overHttp = { binary: ratio('smallSeconds', 'binary', 'http-binary'), url: ratio('smallSeconds', 'url', 'http-url') };
	const met = {
		buffers: worst('base64 default', 'peakBuffersMB') <= MAX_BUFFERS_MB,
		growth: worst('base64 default', 'growthMB') <= MAX_GROWTH_MB,
		beside: Math.max(...ratios) <= MAX_BESIDE_RATIO,
	};
	const text = (values: number[]) => values.map((r) => r.toFixed(2)).join(', ');
	console.log(`  peak Buffers <= ${MAX_BUFFERS_MB} MB: ${met.buffers}; RSS growth <= ${MAX_GROWTH_MB} MB: ${met.growth}; binary / URL beside the bulk run: ${text(ratios)} (<= ${MAX_BESIDE_RATIO}): ${met.beside}; the node alone: ${text(nodeRatios)}`);
	console.log(`  n8n's own nodes (HTTP Request), binary / URL: ${text(httpRatios)}; ours / theirs: binary ${text(overHttp.binary)}, URL ${text(overHttp.url)}`);
	return { runs, besideRatios: ratios, besideNodeRatios: nodeRatios, besideHttpRequestRatios: httpRatios, besideOverHttpRequest: overHttp, targets: { MAX_BUFFERS_MB, MAX_GROWTH_MB, MAX_BESIDE_RATIO }, met };
}

if (['base64', 'beside'].includes(process.argv[2])) {
	main().then(
		() => process.exit(0),
		(error) => {
			console.error(error instanceof Error ? error.stack : error);
			process.exit(1);
		},
	);
}
