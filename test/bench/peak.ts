/**
 * What the memory checks (memory.ts, bytes.ts) share, in their child processes started with --expose-gc:
 * the peak of a batch of work (RSS and the bytes of Buffers) and a node that puts images into items.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { makePng } from '../../dev/mock/png';
import { testNodeDescription } from '../helpers/fixtures';

declare const gc: (() => void) | undefined;

export const MB = 1024 * 1024;

/** A PNG the mock reads as a cat, padded with random bytes to `bytes`. */
export function image(bytes: number): Buffer {
	const png = makePng('cat');
	return Buffer.concat([png, randomBytes(bytes - png.length)]);
}

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

export interface Measurement {
	baseline: number;
	peakHwm?: number;
	peakSampled: number;
	/** Peak of process.memoryUsage().arrayBuffers (Buffers), sampled every ms, over its baseline. */
	peakBuffers: number;
	ms: number;
}

/** Baseline after a full GC, then `work`, then the peak (VmHWM after clear_refs; a 1 ms sampler too). */
export async function measureBatch<T>(work: () => Promise<T>): Promise<{ measurement: Measurement; value: T }> {
	if (typeof gc === 'function') {
		gc();
		gc();
	}
	const baseline = process.memoryUsage.rss();
	const buffersBaseline = process.memoryUsage().arrayBuffers;
	const canReset = resetPeak();
	let peakSampled = baseline;
	let peakBuffers = 0;
	const sample = () => {
		const usage = process.memoryUsage();
		peakSampled = Math.max(peakSampled, usage.rss);
		peakBuffers = Math.max(peakBuffers, usage.arrayBuffers - buffersBaseline);
	};
	const sampler = setInterval(sample, 1);
	const started = Date.now();
	try {
		const value = await work();
		sample();
		const peakHwm = canReset ? vmHwmBytes() : undefined;
		return { value, measurement: { baseline, peakHwm, peakSampled, peakBuffers, ms: Date.now() - started } };
	} finally {
		clearInterval(sampler);
	}
}

/**
 * A node that emits `count` items with `image`: as binary data, each its own stored copy (read back from
 * n8n's store by ours), or as base64 text in `json.image`.
 */
export function imagesNode(count: number, image: Buffer, as: 'binary' | 'base64' = 'binary'): INodeType {
	return {
		description: testNodeDescription('Make Images', 'Puts images into items'),
		async execute(this: IExecuteFunctions) {
			const out: INodeExecutionData[] = [];
			for (let i = 0; i < count; i++) {
				if (as === 'base64') out.push({ json: { index: i, image: image.toString('base64') } });
				else out.push({ json: { index: i }, binary: { data: await this.helpers.prepareBinaryData(image, `img-${i}.png`, 'image/png') } });
			}
			return [out];
		},
	};
}
