/**
 * Memory of Image > Moderate with many large binary images, run by run.ts in a child process started with
 * `--expose-gc`, once per setting: `memory.ts default` (adaptive concurrency, its byte budget) and
 * `memory.ts fixed5` (Fixed Concurrency 5, the old default); and executions at once, each with
 * BENCH_MEMORY_PER_EXECUTION (10) images at the defaults: `memory.ts many` (50 executions) beside
 * `memory.ts one` (one such execution), measured around the whole batch (baseline after a full GC before
 * the executions start, peak = VmHWM after they all end: the images' own node and the engine count in
 * both alike). Runnable alone:
 * `node --expose-gc --import tsx test/bench/memory.ts default`.
 *
 * Method: the mock service runs in ANOTHER process (mockProcess.ts), so its own copies of
 * the bodies are not counted. A node before ours puts BENCH_MEMORY_ITEMS (200) images of BENCH_IMAGE_MB
 * (10) MB into n8n's filesystem binary store (one file each). Our node's `execute` is wrapped: right
 * before it runs, a full GC, then the baseline RSS is read and the kernel's peak-RSS mark is reset
 * (`echo 5 > /proc/self/clear_refs`); right after, the peak is read from VmHWM in /proc/self/status (it
 * catches peaks inside synchronous work that a timer-based sampler would miss; a 1 ms sampler runs too,
 * as a cross-check and for systems without clear_refs). The mock counts the most requests in flight.
 * Prints one JSON line last.
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { makePng } from '../../dev/mock/png';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { binaryItem, moderationNode, runWorkflow } from '../helpers/engine';
import { startMockProcess } from './mockProcess';
import { imagesNode, MB, measureBatch, type Measurement } from './peak';
import { ourNodeType } from './workloads';

const IMAGE_BYTES = Number(process.env.BENCH_IMAGE_MB ?? 10) * 1024 * 1024;
const ITEM_COUNT = Number(process.env.BENCH_MEMORY_ITEMS ?? 200);
const PER_EXECUTION = Number(process.env.BENCH_MEMORY_PER_EXECUTION ?? 10);
const MODES: Record<string, { label: string; requestOptions: Record<string, unknown>; executions?: number }> = {
	default: { label: 'default settings (adaptive)', requestOptions: {} },
	fixed5: { label: 'Fixed Concurrency 5', requestOptions: { concurrency: 5 } },
	many: { label: `50 executions at once, ${PER_EXECUTION} images each, default settings`, requestOptions: {}, executions: 50 },
	one: { label: `1 execution, ${PER_EXECUTION} images, default settings`, requestOptions: {}, executions: 1 },
};

/** Our node with execute() wrapped by the measurement. */
function measuredNode(onMeasured: (m: Measurement) => void, measure: () => boolean): INodeType {
	const real = ourNodeType();
	const wrapped = Object.create(real) as INodeType;
	wrapped.execute = async function (this: IExecuteFunctions) {
		if (!measure()) return await real.execute!.call(this);
		const { measurement, value } = await measureBatch(async () => await real.execute!.call(this));
		onMeasured(measurement);
		return value;
	};
	return wrapped;
}

async function main() {
	const modeName = process.argv[2] ?? 'default';
	const mode = MODES[modeName];
	if (!mode) throw new Error(`unknown mode ${modeName}; one of ${Object.keys(MODES).join(', ')}`);
	const { url, token, child } = await startMockProcess();
	const peakAtMock = async (): Promise<number> => {
		const line = await new Promise<string>((res) => {
			const onData = (d: Buffer) => {
				const text = d.toString().trim();
				if (text.includes('peakInFlight')) {
					child.stdout!.off('data', onData);
					res(text.split('\n').pop()!);
				}
			};
			child.stdout!.on('data', onData);
			child.kill('SIGUSR2');
		});
		return (JSON.parse(line) as { peakInFlight: number }).peakInFlight;
	};
	try {
		let measuring = false;
		let result: Measurement | undefined;
		const node = measuredNode(
			(m) => (result = m),
			() => measuring,
		);
		const run = async (count: number, image: Buffer) => {
			const out = await runWorkflow({
				nodes: [
					{ name: 'Make Images', type: 'bench.makeImages', typeVersion: 1, parameters: {} },
					moderationNode({
						resource: 'image',
						operation: 'moderate',
						inputType: 'binary',
						binaryPropertyName: 'data',
						mode: 'immediate',
						options: mode.requestOptions as IDataObject as never,
					}),
				],
				credentials: { contentModerationApi: { baseUrl: url, accessToken: token } },
				nodeTypes: { [ACTION_TYPE]: node, 'bench.makeImages': imagesNode(count, image) },
			});
			if (out.status !== 'success') throw new Error(`execution ${out.status}: ${out.error?.message} ${out.error?.description ?? ''}`);
			const items = out.outputOf('Content Moderation');
			if (items.length !== count || items.some((item) => typeof item.json.hash !== 'string')) {
				throw new Error(`expected ${count} moderation results, got ${items.length}`);
			}
			return items;
		};

		const png = makePng('cat');
		await run(3, Buffer.concat([png, randomBytes(64 * 1024)]));
		await peakAtMock();

		const image = Buffer.concat([png, randomBytes(IMAGE_BYTES - png.length)]);
		let items: INodeExecutionData[];
		if (mode.executions) {
			result = await measureBatch(async () => {
				const runs = await Promise.all(Array.from({ length: mode.executions! }, () => run(PER_EXECUTION, image)));
				return runs.flat();
			}).then(({ measurement, value }) => ((items = value), measurement));
		} else {
			measuring = true;
			items = await run(ITEM_COUNT, image);
			measuring = false;
		}
		if (!result) throw new Error('the node did not run');
		const count = mode.executions ? mode.executions * PER_EXECUTION : ITEM_COUNT;
		const peakInFlight = await peakAtMock();

		const { createHash } = await import('node:crypto');
		const hashMatches = items!.every((item) => item.json.hash === createHash('sha256').update(image).digest('hex'));
		const peak = result.peakHwm ?? result.peakSampled;
		const growth = peak - result.baseline;
		const mb = (n: number) => Number((n / MB).toFixed(1));
		const out = {
			mode: modeName,
			label: mode.label,
			items: count,
			executions: mode.executions ?? 1,
			imageBytes: IMAGE_BYTES,
			baselineRssMB: mb(result.baseline),
			peakRssMB: mb(peak),
			peakRssSampledMB: mb(result.peakSampled),
			growthMB: mb(growth),
			growthMultipleOfImage: Number((growth / IMAGE_BYTES).toFixed(2)),
			peakRequestsInFlightAtService: peakInFlight,
			peakSource: result.peakHwm !== undefined ? 'VmHWM after clear_refs' : '1 ms RSS sampler',
			nodeSeconds: Number((result.ms / 1000).toFixed(1)),
			serviceHashMatchesImage: hashMatches,
			summary: `${mode.label}: ${count} x ${IMAGE_BYTES / MB} MB images, RSS ${mb(result.baseline)} MB -> peak ${mb(peak)} MB (growth ${mb(growth)} MB = ${(growth / IMAGE_BYTES).toFixed(2)} x one image), at most ${peakInFlight} requests in flight, ${(result.ms / 1000).toFixed(1)} s`,
			method: mode.executions
				? 'child process with --expose-gc; mock service in another process; baseline RSS after gc() before the executions start (their images are made and stored by each execution); peak = kernel VmHWM reset via /proc/self/clear_refs, read after all ended (1 ms sampler as cross-check)'
				: 'child process with --expose-gc; mock service in another process; baseline RSS after gc() right before the node executes, images already in the filesystem binary store; peak = kernel VmHWM reset via /proc/self/clear_refs (1 ms sampler as cross-check)',
		};
		console.log(JSON.stringify(out));
	} finally {
		child.kill();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	},
);
