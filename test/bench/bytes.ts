/**
 * The byte budget, in a child process (mock service in another process), run by run.ts (`--only bytes`):
 *   `bytes.ts base64 <default|fixed20>`: 120 images of 4 MB as base64 text in the items (BENCH_BYTES_ITEMS,
 *     BENCH_BYTES_IMAGE_MB), Image > Moderate with Input Type Base64, 300 ms latency; peak RSS over the
 *     baseline (VmHWM after clear_refs) and peak Buffer bytes (1 ms sampler) while the node runs.
 *   `bytes.ts beside <binary|url>`: 800 ms latency; a run of 150 binary images of 1 MB, and 1.5 s after it
 *     began sending, once it holds 3/4 of the byte budget, a one-image execution with a binary image of
 *     1 MB (or its URL): how long the one-image execution took.
 * Runnable alone: `node --expose-gc --import tsx test/bench/bytes.ts base64 default`. Prints one JSON line last.
 * `bytesBench()` (run.ts) runs each case twice, each in its own child, and checks the targets below.
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { makePng } from '../../dev/mock/png';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { limiters } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/registry';
import { moderateUrlParameters, moderationNode, runWorkflow } from '../helpers/engine';
import { childCheck } from './harness';
import { startMockProcess } from './mockProcess';
import { imagesNode, MB, measureBatch } from './peak';
import { imageItems, ourNodeType, type Target } from './workloads';

const ITEMS = Number(process.env.BENCH_BYTES_ITEMS ?? 120);
const IMAGE_MB = Number(process.env.BENCH_BYTES_IMAGE_MB ?? 4);
const BULK = 150;
/** Targets: Buffers at most twice the 64 MB budget, RSS growth at most three times; beside: <= 1.3 x the URL case. */
const MAX_BUFFERS_MB = 128;
const MAX_GROWTH_MB = 192;
const MAX_BESIDE_RATIO = 1.3;
const mb = (n: number) => Number((n / MB).toFixed(1));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function image(bytes: number): Buffer {
	const png = makePng('cat');
	return Buffer.concat([png, randomBytes(bytes - png.length)]);
}

/** Our node; `onStart` is told when a run's execute begins. */
function ourNode(onStart: () => void = () => {}): INodeType {
	const real = ourNodeType();
	const wrapped = Object.create(real) as INodeType;
	wrapped.execute = async function (this: IExecuteFunctions) {
		onStart();
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

async function beside(target: Target, small: string) {
	const oneMb = image(MB);
	limiters.clear();
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
	// From the moderation node's start: without the Make Images node the binary case has and the URL case has not.
	let nodeBegan = t0;
	const smallNode = ourNode(() => (nodeBegan = Date.now()));
	if (small === 'binary') await moderateImages(target, 1, oneMb, 'binary', {}, smallNode);
	else {
		const run = await runWorkflow({
			nodes: [moderationNode(moderateUrlParameters())],
			credentials: { contentModerationApi: { baseUrl: target.url, accessToken: target.token } },
			nodeTypes: { [ACTION_TYPE]: smallNode },
			items: imageItems(1, 'beside'),
		});
		if (run.status !== 'success') throw new Error(`small run: ${run.error?.message}`);
	}
	const smallSeconds = (Date.now() - t0) / 1000;
	const nodeSeconds = (Date.now() - nodeBegan) / 1000;
	await bulk;
	const bulkSeconds = (Date.now() - bulkBegan) / 1000;
	return {
		scenario: 'beside',
		small,
		smallSeconds: Number(smallSeconds.toFixed(2)),
		nodeSeconds: Number(nodeSeconds.toFixed(2)),
		bulkHeldMB,
		bulkSeconds: Number(bulkSeconds.toFixed(2)),
		summary: `one ${small} image beside ${BULK} x 1 MB binary (holding ${bulkHeldMB} MB): ${smallSeconds.toFixed(2)} s, its node ${nodeSeconds.toFixed(2)} s (the bulk run ${bulkSeconds.toFixed(1)} s)`,
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
	const cases: Array<[string, string]> = [['base64', 'default'], ['base64', 'fixed20'], ['beside', 'binary'], ['beside', 'url']];
	console.log('\nBytes: 120 base64 images of 4 MB; one image beside 150 binary images of 1 MB (child processes)...');
	for (let repeat = 0; repeat < 2; repeat++) {
		for (const [scenario, setting] of cases) {
			const out = await childCheck('bytes.ts', [scenario, setting]);
			(runs[`${scenario} ${setting}`] ??= []).push(out);
			console.log(`  ${String(out.summary)}`);
		}
	}
	const worst = (key: string, field: string) => Math.max(...runs[key].map((r) => Number(r[field])));
	const ratio = (field: string) => runs['beside binary'].map((r, i) => Number(r[field]) / Number(runs['beside url'][i][field]));
	const ratios = ratio('smallSeconds');
	const nodeRatios = ratio('nodeSeconds');
	const met = {
		buffers: worst('base64 default', 'peakBuffersMB') <= MAX_BUFFERS_MB,
		growth: worst('base64 default', 'growthMB') <= MAX_GROWTH_MB,
		beside: Math.max(...ratios) <= MAX_BESIDE_RATIO,
	};
	const text = (values: number[]) => values.map((r) => r.toFixed(2)).join(', ');
	console.log(`  peak Buffers <= ${MAX_BUFFERS_MB} MB: ${met.buffers}; RSS growth <= ${MAX_GROWTH_MB} MB: ${met.growth}; binary / URL beside the bulk run: ${text(ratios)} (<= ${MAX_BESIDE_RATIO}): ${met.beside}; the node alone: ${text(nodeRatios)}`);
	return { runs, besideRatios: ratios, besideNodeRatios: nodeRatios, targets: { MAX_BUFFERS_MB, MAX_GROWTH_MB, MAX_BESIDE_RATIO }, met };
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
