/**
 * Memory of Image > Moderate with a 20 MB binary image, run by run.ts in a child process started with
 * `--expose-gc` (and runnable alone: `node --expose-gc --import tsx test/bench/memory.ts`).
 *
 * Method: the mock service runs in ANOTHER process (this file with --serve-mock), so its own copies of
 * the body are not counted. The image is put into
 * n8n's filesystem binary store by the harness's Start node first. Our node's `execute` is wrapped:
 * right before it runs, a full GC, then the baseline RSS is read and the kernel's peak-RSS mark is reset
 * (`echo 5 > /proc/self/clear_refs`); right after, the peak is read from VmHWM in /proc/self/status (it
 * catches peaks inside synchronous work that a timer-based sampler would miss; a 1 ms sampler runs too,
 * as a cross-check and for systems without clear_refs). Growth = peak − baseline, reported as a
 * multiple of the image size. A small warm-up run first loads every module the measured run uses.
 * Prints one JSON line last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { makePng } from '../../dev/mock/png';
import { startMockService } from '../../dev/mock/server';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { binaryItem, moderationNode, runWorkflow } from '../helpers/engine';
import { ourNodeType } from './workloads';

const IMAGE_BYTES = Number(process.env.BENCH_IMAGE_MB ?? 20) * 1024 * 1024;
const MB = 1024 * 1024;

declare const gc: (() => void) | undefined;

function vmHwmBytes(): number | undefined {
	try {
		const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
		return m ? Number(m[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

function resetPeak(): boolean {
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

interface Measurement {
	baseline: number;
	peakHwm?: number;
	peakSampled: number;
	ms: number;
}

/** Our node with execute() wrapped by the measurement. */
function measuredNode(onMeasured: (m: Measurement) => void, measure: () => boolean): INodeType {
	const real = ourNodeType();
	const wrapped = Object.create(real) as INodeType;
	wrapped.execute = async function (this: IExecuteFunctions) {
		if (!measure()) return await real.execute!.call(this);
		if (typeof gc === 'function') {
			gc();
			gc();
		}
		const baseline = process.memoryUsage.rss();
		const canReset = resetPeak();
		let peakSampled = baseline;
		const sampler = setInterval(() => {
			peakSampled = Math.max(peakSampled, process.memoryUsage.rss());
		}, 1);
		const started = Date.now();
		try {
			return await real.execute!.call(this);
		} finally {
			clearInterval(sampler);
			peakSampled = Math.max(peakSampled, process.memoryUsage.rss());
			onMeasured({
				baseline,
				peakHwm: canReset ? vmHwmBytes() : undefined,
				peakSampled,
				ms: Date.now() - started,
			});
		}
	};
	return wrapped;
}

/** The mock service in its own process (this file with --serve-mock), so its copies are not counted. */
async function startMockProcess(): Promise<{ url: string; token: string; child: ChildProcess }> {
	const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--serve-mock'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const line = await new Promise<string>((res, rej) => {
		let out = '';
		const timer = setTimeout(() => rej(new Error(`mock did not start: ${out}`)), 30_000);
		child.stdout!.on('data', (d: Buffer) => {
			out += d.toString();
			if (out.includes('\n')) {
				clearTimeout(timer);
				res(out.split('\n')[0]);
			}
		});
		child.on('exit', (code) => rej(new Error(`mock exited ${code}: ${out}`)));
	});
	const { url, token } = JSON.parse(line) as { url: string; token: string };
	return { url, token, child };
}

async function serveMock() {
	const mock = await startMockService({ maxBodyBytes: 64 * MB, record: false, token: 'memory-token' });
	console.log(JSON.stringify({ url: mock.url, token: mock.token }));
	// Ends with the parent: stdin is not used, so watch the parent pid.
	const parent = process.ppid;
	setInterval(() => {
		try {
			process.kill(parent, 0);
		} catch {
			void mock.stop().then(() => process.exit(0));
		}
	}, 500);
	process.on('SIGTERM', () => void mock.stop().then(() => process.exit(0)));
}

async function main() {
	const { url, token, child } = await startMockProcess();
	try {
		let measuring = false;
		let result: Measurement | undefined;
		const node = measuredNode(
			(m) => (result = m),
			() => measuring,
		);
		const run = async (bytes: Buffer) => {
			const out = await runWorkflow({
				nodes: [moderationNode({ resource: 'image', operation: 'moderate', inputType: 'binary', binaryPropertyName: 'data', mode: 'immediate' })],
				credentials: { contentModerationApi: { baseUrl: url, accessToken: token } },
				items: [binaryItem(bytes, { mimeType: 'image/png', fileName: 'big.png' })],
				nodeTypes: { [ACTION_TYPE]: node },
			});
			if (out.status !== 'success') throw new Error(`execution ${out.status}: ${out.error?.message} ${out.error?.description ?? ''}`);
			const json = out.outputOf('Content Moderation')[0]?.json as Record<string, unknown>;
			if (typeof json?.hash !== 'string') throw new Error(`no moderation result: ${JSON.stringify(json).slice(0, 300)}`);
			return json;
		};

		const png = makePng('cat');
		await run(Buffer.concat([png, randomBytes(64 * 1024)]));

		const image = Buffer.concat([png, randomBytes(IMAGE_BYTES - png.length)]);
		measuring = true;
		const json = await run(image);
		measuring = false;
		if (!result) throw new Error('the node did not run');

		const { createHash } = await import('node:crypto');
		const hashMatches = json.hash === createHash('sha256').update(image).digest('hex');
		const peak = result.peakHwm ?? result.peakSampled;
		const growth = peak - result.baseline;
		const multiple = growth / IMAGE_BYTES;
		const out = {
			imageBytes: IMAGE_BYTES,
			baselineRssMB: Number((result.baseline / MB).toFixed(1)),
			peakRssMB: Number((peak / MB).toFixed(1)),
			peakRssSampledMB: Number((result.peakSampled / MB).toFixed(1)),
			growthMB: Number((growth / MB).toFixed(1)),
			growthMultipleOfImage: Number(multiple.toFixed(2)),
			peakSource: result.peakHwm !== undefined ? 'VmHWM after clear_refs' : '1 ms RSS sampler',
			nodeMs: result.ms,
			serviceHashMatchesImage: hashMatches,
			summary: `20 MB image: RSS ${(result.baseline / MB).toFixed(0)} MB -> peak ${(peak / MB).toFixed(0)} MB, growth ${(growth / MB).toFixed(1)} MB = ${multiple.toFixed(2)} x the image size (target <= 4)`,
			method:
				'child process with --expose-gc; mock service in another process; baseline RSS after gc() right before the node executes, image already in the filesystem binary store; peak = kernel VmHWM reset via /proc/self/clear_refs (1 ms sampler as cross-check)',
		};
		console.log(JSON.stringify(out));
	} finally {
		child.kill();
	}
}

const entry = process.argv.includes('--serve-mock') ? serveMock : main;
entry().then(
	() => {
		if (entry === main) process.exit(0);
	},
	(error) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	},
);
