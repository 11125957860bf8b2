/**
 * One 1.4 MB POST beside a bulk load, sent by each path side by side in one process (n8n-core's real request
 * helpers, the mock in another process, 800 ms latency), to explain why our node's request took longer than
 * HTTP Request's beside the `bytes` bench's bulk run (docs/performance.md, "bytes"). Variants, alternating:
 *   buffer: transport/http.ts `httpOptions` (the body prebuilt as one Buffer) through httpRequestWithAuthentication,
 *     on a context carrying a run's abort signal, as our client calls it;
 *   client: the whole client (`createApiClient`: credential read once, limiter share, retries, signal);
 *   object: the same helper with the body as an object (axios stringifies it);
 *   legacy: `helpers.request` with the object body and the header, as HTTP Request V3 sends it;
 *   url:    our options with an image URL (a small body).
 * Timings: `burst` (sent in the tick a bulk answer came back and its worker sent its next body, as our
 * limiter lets a request go) and `any` (at a random moment, as HTTP Request sends). First alone (no bulk),
 * then beside BENCH_SEND_BULK (40) workers each POSTing a 1.4 MB body again as soon as its answer is back.
 * Each probe is split at the request's start on the socket, its body written ('finish') and the answer's headers.
 * `node --import tsx test/bench/sendPath.ts run` (or `npm run bench -- --only send-path`); BENCH_SEND_ROUNDS (10),
 * BENCH_SEND_VARIANTS (all).
 */
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { loadavg } from 'node:os';

import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INodeType } from 'n8n-workflow';

import { CREDENTIAL_TYPE, createApiClient } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/transport/client';
import { httpOptions } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/transport/http';
import { DEFAULT_RETRY_SETTINGS } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/retry/policy';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';
import { runWorkflow } from '../helpers/engine';
import { testNodeDescription } from '../helpers/fixtures';
import { childCheck, median } from './harness';
import { startMockProcess } from './mockProcess';
import { image, MB } from './peak';
import type { Target } from './workloads';

const ROUNDS = Number(process.env.BENCH_SEND_ROUNDS ?? 10);
const BULK = Number(process.env.BENCH_SEND_BULK ?? 40);
const ALL = ['buffer', 'client', 'object', 'legacy', 'url'] as const;
type Variant = (typeof ALL)[number];
/** BENCH_SEND_VARIANTS: a subset, e.g. `buffer,legacy`. */
const VARIANTS = (process.env.BENCH_SEND_VARIANTS?.split(',') ?? [...ALL]).filter((v): v is Variant => (ALL as readonly string[]).includes(v));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => loadavg()[0].toFixed(1);

/** When the probe's request started on the socket, finished writing its body, and got its answer's headers. */
export interface Split {
	start?: number;
	written?: number;
	headers?: number;
}

/** Times the requests whose content-length `isProbe` picks (a probe's body is a few bytes longer than the bulk's). */
export function watchProbe(isProbe: (contentLength: number) => boolean, split: () => Split) {
	subscribe('http.client.request.start', (message) => {
		const request = (message as { request: ClientRequest }).request;
		if (!isProbe(Number(request.getHeader('content-length')))) return;
		const s = split();
		s.start = Date.now();
		request.once('finish', () => (s.written = Date.now()));
		request.once('response', () => (s.headers = Date.now()));
	});
}

function benchNode(target: Target): INodeType {
	return {
		description: testNodeDescription('Send Path', 'Sends one large POST by each path beside a bulk load', {
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		}),
		async execute(this: IExecuteFunctions) {
			return [[{ json: await sendPaths(this, target) }]];
		},
	};
}

async function sendPaths(ctx: IExecuteFunctions, target: Target): Promise<IDataObject> {
	const bulkImage = image(MB);
	const probeImage = image(MB + 3);
	const credentialsDecrypted = { id: '1', name: 'bench', type: CREDENTIAL_TYPE, data: { baseUrl: target.url, accessToken: target.token } };
	const abort = new AbortController();
	const signalled = Object.create(ctx, { getExecutionCancelSignal: { value: () => abort.signal } }) as IExecuteFunctions;
	const viaHelper = async (options: IHttpRequestOptions) =>
		await ctx.helpers.httpRequestWithAuthentication.call(signalled, CREDENTIAL_TYPE, options, { credentialsDecrypted });
	const post = (body: IDataObject) => ({ method: 'POST' as const, path: '/image', body });

	let probeLength = 0;
	let split: Split = {};
	watchProbe((length) => length === probeLength, () => split);
	const send: Record<Variant, () => Promise<unknown>> = {
		buffer: async () => await viaHelper(httpOptions(target.url, post({ image: probeImage.toString('base64') }), abort.signal)),
		client: async () => await createApiClient(ctx, { retry: DEFAULT_RETRY_SETTINGS, signal: abort.signal }).request(post({ image: probeImage.toString('base64') })),
		object: async () => {
			const options = httpOptions(target.url, post({}), abort.signal);
			return await viaHelper({ ...options, body: { image: probeImage.toString('base64') } });
		},
		legacy: async () =>
			await ctx.helpers.request({
				method: 'POST',
				uri: `${target.url}/image`,
				headers: { Authorization: `Bearer ${target.token}` },
				body: { image: probeImage.toString('base64') },
				json: true,
				gzip: true,
				rejectUnauthorized: true,
				followRedirect: true,
				resolveWithFullResponse: true,
			}),
		url: async () => await viaHelper(httpOptions(target.url, post({ image: 'https://example.com/cat.png' }), abort.signal)),
	};
	const lengthOf = (variant: Variant) =>
		Buffer.byteLength(JSON.stringify({ image: variant === 'url' ? 'https://example.com/cat.png' : probeImage.toString('base64') }));

	// The bulk load: each worker sends its next body as soon as its answer is back; `onAnswer` is told then.
	let running = false;
	let onAnswer: (() => void) | undefined;
	const bulkSent: number[] = [];
	const worker = async () => {
		while (running) {
			bulkSent.push(Date.now());
			const pending = viaHelper(httpOptions(target.url, post({ image: bulkImage.toString('base64') }), abort.signal));
			await pending;
			const next = onAnswer;
			onAnswer = undefined;
			// The next bulk body goes out first, then the probe, in the same tick.
			if (next) setImmediate(next);
		}
	};

	const samples: Array<{ phase: string; variant: Variant; timing: string; ms: number; toStart?: number; write?: number; toHeaders?: number; after?: number; bulkWithin300?: number }> = [];
	const probe = async (phase: string, variant: Variant, timing: 'burst' | 'any') => {
		if (timing === 'burst') await new Promise<void>((r) => (onAnswer = r));
		else await pause(Math.random() * 1000);
		probeLength = lengthOf(variant);
		split = {};
		const t0 = Date.now();
		const bulkWithin300 = bulkSent.filter((t) => t > t0 - 300).length;
		await send[variant]();
		const t1 = Date.now();
		const s = split;
		const d = (a?: number, b?: number) => (a === undefined || b === undefined ? undefined : b - a);
		samples.push({ phase, variant, timing, ms: t1 - t0, toStart: d(t0, s.start), write: d(s.start, s.written), toHeaders: d(s.written, s.headers), after: d(s.headers, t1), bulkWithin300 });
	};
	const loads: Record<string, string[]> = { alone: [load()], beside: [] };
	// Warm-up: every path once.
	for (const variant of VARIANTS) await send[variant]();
	for (let round = 0; round < ROUNDS; round++) {
		for (let i = 0; i < VARIANTS.length; i++) await probe('alone', VARIANTS[(round + i) % VARIANTS.length], 'any');
	}
	loads.alone.push(load());
	running = true;
	const workers = Array.from({ length: BULK }, worker);
	await pause(3000);
	loads.beside.push(load());
	for (let round = 0; round < ROUNDS; round++) {
		for (let i = 0; i < VARIANTS.length; i++) {
			const variant = VARIANTS[(round + i) % VARIANTS.length];
			const timings = round % 2 === 0 ? (['burst', 'any'] as const) : (['any', 'burst'] as const);
			for (const timing of timings) await probe('beside', variant, timing);
		}
		if (round % 3 === 2) loads.beside.push(load());
	}
	running = false;
	await Promise.all(workers);
	return { samples, loads } as unknown as IDataObject;
}

type Sample = { phase: string; variant: string; timing: string; ms: number; toStart?: number; write?: number; toHeaders?: number; after?: number; bulkWithin300?: number };

/** Median (min–max) per phase, timing and variant, and the split's medians. */
function summarize(samples: Sample[]): Record<string, string> {
	const groups: Record<string, Sample[]> = {};
	for (const s of samples) (groups[`${s.phase} ${s.timing} ${s.variant}`] ??= []).push(s);
	const out: Record<string, string> = {};
	const med = (list: Sample[], key: keyof Sample) => {
		const values = list.map((s) => s[key]).filter((v): v is number => typeof v === 'number');
		return values.length ? Math.round(median(values)) : NaN;
	};
	for (const [key, list] of Object.entries(groups)) {
		const ms = list.map((s) => s.ms);
		out[key] = `${med(list, 'ms')} ms (${Math.min(...ms)}–${Math.max(...ms)}, n=${ms.length}); to socket ${med(list, 'toStart')}, body written ${med(list, 'write')}, to answer headers ${med(list, 'toHeaders')}, after ${med(list, 'after')}; bulk sends in the 300 ms before ${med(list, 'bulkWithin300')}`;
	}
	return out;
}

async function main() {
	const { url, token, child } = await startMockProcess({ latencyMs: 800 });
	try {
		resetProcessState();
		const target = { url, token };
		const run = await runWorkflow({
			nodes: [{ name: 'Send Path', type: 'bench.sendPath', typeVersion: 1, parameters: {}, credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'bench' } } }],
			credentials: { [CREDENTIAL_TYPE]: { baseUrl: url, accessToken: token } },
			nodeTypes: { 'bench.sendPath': benchNode(target) },
		});
		if (run.status !== 'success') throw new Error(`send path: ${run.error?.message}`);
		const { samples, loads } = run.outputOf('Send Path')[0].json as unknown as { samples: Sample[]; loads: Record<string, string[]> };
		const summary = summarize(samples);
		for (const [key, line] of Object.entries(summary)) console.error(`${key}: ${line}`);
		console.error(`load average (1 min): alone ${loads.alone.join(' → ')}, beside ${loads.beside.join(' → ')}`);
		console.log(JSON.stringify({ summary, loads, samples }));
	} finally {
		child.kill();
	}
}

/** run.ts: the comparison in its own child. */
export async function sendPathBench(): Promise<Record<string, unknown>> {
	console.log(`\nSend path: one 1.4 MB POST by each path, alone and beside ${BULK} bulk POSTs (child process)...`);
	const out = await childCheck('sendPath.ts', ['run']);
	for (const [key, line] of Object.entries(out.summary as Record<string, string>)) console.log(`  ${key}: ${line}`);
	return out;
}

if (process.argv[2] === 'run') {
	main().then(
		() => process.exit(0),
		(error) => {
			console.error(error instanceof Error ? error.stack : error);
			process.exit(1);
		},
	);
}
