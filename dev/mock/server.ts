import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { analyzeImage, analyzeText, sha256, type ImageResult, type TextModeration } from './analysis';
import { CallbackDeliverer, type CallbackAttempt } from './callbacks';
import { MockApiError } from './errors';
import {
	requirePathId,
	validateImageRequest,
	validateQueueRequest,
	type ImageInput,
} from './validation';

// Every choice this file makes where the spec says "not shown" is written down in README.md.

export type { CallbackAttempt } from './callbacks';
export type { ImageResult, TextModeration } from './analysis';

export interface MockServiceOptions {
	/** 0 (default) picks a free port */
	port?: number;
	host?: string;
	token?: string;
	/** Added before every response */
	latencyMs?: number;
	/** How long a deferred image or a queue item takes to process */
	processMs?: number;
	/** Fraction (0..1) of requests answered 503 with Retry-After, before anything else happens */
	faultRate?: number;
	/** Fraction (0..1) of requests answered 429 with Retry-After, before anything else happens */
	throttleRate?: number;
	/** Retry-After seconds on faults and throttles (0 allowed) */
	retryAfterSeconds?: number;
	/** Requests per one-second window; over it 429. 0 = no limit */
	rateLimit?: number;
	callbackRetries?: number;
	callbackBackoffMs?: number;
	/** Per-attempt timeout of a callback delivery */
	callbackTimeoutMs?: number;
	/** Largest accepted request body; over it 413 */
	maxBodyBytes?: number;
	/** Whether to keep `requests`/`callbacks`/`submissions` (the CLI turns it off: nobody can read them) */
	record?: boolean;
}

export type ResolvedOptions = Required<MockServiceOptions>;

export const DEFAULT_OPTIONS: ResolvedOptions = {
	port: 0,
	host: '127.0.0.1',
	token: 'test-token',
	latencyMs: 0,
	processMs: 200,
	faultRate: 0,
	throttleRate: 0,
	retryAfterSeconds: 1,
	rateLimit: 0,
	callbackRetries: 3,
	callbackBackoffMs: 100,
	callbackTimeoutMs: 5_000,
	maxBodyBytes: 10 * 1024 * 1024,
	record: true,
};

/** Options that can change while the service runs (see `configure`). */
export type RuntimeOptions = Pick<
	MockServiceOptions,
	| 'latencyMs'
	| 'processMs'
	| 'faultRate'
	| 'throttleRate'
	| 'retryAfterSeconds'
	| 'rateLimit'
	| 'callbackRetries'
	| 'callbackBackoffMs'
	| 'callbackTimeoutMs'
>;

export interface RequestRecord {
	method: string;
	/** Path without the query string, as sent (not decoded) */
	path: string;
	query: Record<string, string>;
	/** Lower-cased names, as node:http gives them */
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON; the raw text when it is not JSON; undefined when there was no body */
	body: unknown;
	/** Status the mock answered */
	status: number;
	/** Epoch ms when the request was read */
	time: number;
}

/** One piece of content the service acted on (an accepted image submission or queue item). */
export interface SubmissionRecord {
	kind: 'image' | 'queue';
	/** Moderation id (image) or item id (queue) */
	id: string;
	queueId?: string;
	type: 'text' | 'image';
	/** SHA-256 of the content, as the result's `hash` */
	hash: string;
	actorId?: string;
	meta?: unknown;
	time: number;
}

export interface MockService {
	url: string;
	port: number;
	token: string;
	requests: RequestRecord[];
	callbacks: CallbackAttempt[];
	/**
	 * Counts of accepted submissions by caller-visible key: `hash:<sha256>`, `actor:<actorId>` and
	 * `meta:<JSON of meta>`. Each submission adds 1 to each key it carries; a count above 1 is content the
	 * service acted on twice.
	 */
	submissions: Map<string, number>;
	/** The same submissions, one record each, in order */
	submissionLog: SubmissionRecord[];
	/** Changes timing/fault options of the running service */
	configure(options: RuntimeOptions): void;
	/** Resolves once no job is processing and no callback delivery is in flight; rejects after timeoutMs */
	whenIdle(timeoutMs?: number): Promise<void>;
	/** Clears requests, callbacks, submissions and the fault/throttle/rate-limit counters (not stored results) */
	reset(): void;
	stop(): Promise<void>;
}

interface ImageJob {
	status: 'processing' | 'done';
	result: ImageResult;
}

interface QueueItem {
	id: string;
	type: 'text' | 'image';
	accepted: boolean;
	status: 'processing' | 'pending';
	content: string;
	moderation: ImageResult | TextModeration | null;
}

interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

interface Route {
	pattern: string[];
	methods: Record<string, (params: Record<string, string>, request: ParsedRequest) => Reply>;
}

interface ParsedRequest {
	method: string;
	headers: IncomingMessage['headers'];
	raw: Buffer;
	tooLarge: boolean;
}

function checkOptions(options: ResolvedOptions): void {
	for (const key of ['faultRate', 'throttleRate'] as const) {
		const value = options[key];
		if (!(value >= 0 && value <= 1)) throw new RangeError(`${key} must be between 0 and 1`);
	}
	for (const key of [
		'latencyMs',
		'processMs',
		'retryAfterSeconds',
		'rateLimit',
		'callbackRetries',
		'callbackBackoffMs',
		'callbackTimeoutMs',
	] as const) {
		const value = options[key];
		if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${key} must be a number >= 0`);
	}
	if (!options.token) throw new RangeError('token must not be empty');
}

function splitTarget(target: string): { path: string; query: Record<string, string> } {
	const at = target.indexOf('?');
	if (at < 0) return { path: target, query: {} };
	return { path: target.slice(0, at), query: Object.fromEntries(new URLSearchParams(target.slice(at + 1))) };
}

function parseBody(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** Starts the mock on host:port and resolves once it accepts requests. */
export async function startMockService(opts: MockServiceOptions = {}): Promise<MockService> {
	const options: ResolvedOptions = { ...DEFAULT_OPTIONS };
	for (const [key, value] of Object.entries(opts)) {
		if (value !== undefined) (options as Record<string, unknown>)[key] = value;
	}
	checkOptions(options);
	const expectedAuth = Buffer.from(options.token);

	const requests: RequestRecord[] = [];
	const callbacks: CallbackAttempt[] = [];
	const submissions = new Map<string, number>();
	const submissionLog: SubmissionRecord[] = [];

	const images = new Map<string, ImageJob>();
	const texts = new Map<string, TextModeration>();
	const items = new Map<string, { queueId: string; item: QueueItem }>();
	const timers = new Set<NodeJS.Timeout>();
	let processing = 0;

	// Fault and throttle decisions accumulate their rate and fire each time the sum passes 1: exactly that
	// fraction of requests, evenly spread, the same on every run.
	let faultCredit = 0;
	let throttleCredit = 0;
	let windowStart = 0;
	let windowCount = 0;

	const deliverer = new CallbackDeliverer(
		() => ({
			retries: options.callbackRetries,
			backoffMs: options.callbackBackoffMs,
			timeoutMs: options.callbackTimeoutMs,
		}),
		(attempt) => {
			if (options.record) callbacks.push(attempt);
		},
	);

	function later(ms: number, fn: () => void): void {
		const timer = setTimeout(() => {
			timers.delete(timer);
			fn();
		}, ms);
		timers.add(timer);
	}

	function recordSubmission(entry: Omit<SubmissionRecord, 'time'>): void {
		if (!options.record) return;
		submissionLog.push({ ...entry, time: Date.now() });
		const keys = [`hash:${entry.hash}`];
		if (entry.actorId !== undefined) keys.push(`actor:${entry.actorId}`);
		if (entry.meta !== undefined) keys.push(`meta:${JSON.stringify(entry.meta)}`);
		for (const key of keys) submissions.set(key, (submissions.get(key) ?? 0) + 1);
	}

	function requestStamp(): ImageResult['request'] {
		return { requestId: randomUUID(), timestamp: new Date().toISOString() };
	}

	function imageResult(image: ImageInput, meta: unknown, field: string): ImageResult {
		// analyzeImage throws a 400 for a malformed mock_* parameter, before anything is stored.
		const analysis = analyzeImage(image, field);
		return { id: randomUUID(), ...analysis, request: requestStamp(), meta: meta ?? null };
	}

	/** Runs `done` after processMs, counting the job as processing until then. */
	function process(done: () => void): void {
		processing++;
		later(options.processMs, () => {
			processing--;
			done();
		});
	}

	// ---- gates: rate limit, faults, throttling, auth -------------------------------------------------------

	function gate(): Reply | undefined {
		if (options.rateLimit > 0) {
			const now = Date.now();
			if (now - windowStart >= 1000) {
				windowStart = now;
				windowCount = 0;
			}
			windowCount++;
			if (windowCount > options.rateLimit) {
				const wait = Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000));
				return errorReply(
					new MockApiError(429, 'rate_limited', `Rate limit of ${options.rateLimit} requests per second exceeded`, undefined, {
						'retry-after': String(wait),
					}),
				);
			}
		}
		const retryAfter = { 'retry-after': String(options.retryAfterSeconds) };
		faultCredit += options.faultRate;
		if (faultCredit >= 1 - 1e-9) {
			faultCredit -= 1;
			return errorReply(
				new MockApiError(503, 'service_unavailable', 'The service is temporarily unavailable (simulated fault)', undefined, retryAfter),
			);
		}
		throttleCredit += options.throttleRate;
		if (throttleCredit >= 1 - 1e-9) {
			throttleCredit -= 1;
			return errorReply(new MockApiError(429, 'throttled', 'Too many requests (simulated throttling)', undefined, retryAfter));
		}
		return undefined;
	}

	function authenticate(headers: IncomingMessage['headers']): void {
		const header = headers.authorization;
		const unauthorized = (message: string) =>
			new MockApiError(401, 'unauthorized', message, undefined, { 'www-authenticate': 'Bearer' });
		if (!header) throw unauthorized('Missing Authorization header; send "Authorization: Bearer <access token>"');
		const match = /^Bearer +(\S+) *$/i.exec(header);
		if (!match) throw unauthorized('The Authorization header must use the Bearer scheme');
		const given = Buffer.from(match[1]);
		if (given.length !== expectedAuth.length || !timingSafeEqual(given, expectedAuth)) {
			throw unauthorized('Invalid access token');
		}
	}

	function jsonBody(request: ParsedRequest): unknown {
		if (request.tooLarge) {
			throw new MockApiError(413, 'payload_too_large', `The request body is larger than ${options.maxBodyBytes} bytes`);
		}
		const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
			throw new MockApiError(415, 'unsupported_media_type', 'The request body must be sent as Content-Type: application/json');
		}
		if (request.raw.length === 0) throw new MockApiError(400, 'invalid_json', 'The request body is empty; a JSON object is required');
		try {
			return JSON.parse(request.raw.toString('utf8'));
		} catch {
			throw new MockApiError(400, 'invalid_json', 'The request body is not valid JSON');
		}
	}

	// ---- handlers -------------------------------------------------------------------------------------------

	function postImage(_params: Record<string, string>, request: ParsedRequest): Reply {
		const input = validateImageRequest(jsonBody(request));
		const result = imageResult(input.image, input.meta, 'image');
		recordSubmission({
			kind: 'image',
			id: result.id,
			type: 'image',
			hash: result.hash,
			actorId: input.actorId,
			meta: input.meta,
		});
		if (input.defer !== true && input.callbackUrl === undefined) {
			images.set(result.id, { status: 'done', result });
			return { status: 200, body: result };
		}
		const job: ImageJob = { status: 'processing', result };
		images.set(result.id, job);
		process(() => {
			job.status = 'done';
			if (input.callbackUrl) deliverer.deliver(result.id, input.callbackUrl, result);
		});
		return { status: 202, body: { id: result.id } };
	}

	function getImage(params: Record<string, string>): Reply {
		const id = requirePathId(params.id, 'id');
		const job = images.get(id);
		if (!job) throw new MockApiError(404, 'not_found', `No image moderation with id ${id}`);
		if (job.status === 'processing') return { status: 202, body: { id, status: 'processing' } };
		return { status: 200, body: job.result };
	}

	function postQueueItem(params: Record<string, string>, request: ParsedRequest): Reply {
		const queueId = params.queueId;
		const input = validateQueueRequest(jsonBody(request));
		const image = input.image ? imageResult(input.image, input.meta, 'content') : undefined;
		const item: QueueItem = {
			id: randomUUID(),
			type: input.type,
			accepted: false,
			status: 'processing',
			content: input.content,
			moderation: null,
		};
		items.set(item.id, { queueId, item });
		recordSubmission({
			kind: 'queue',
			id: item.id,
			queueId,
			type: input.type,
			hash: image ? image.hash : sha256(input.content),
			actorId: input.actorId,
			meta: input.meta,
		});
		const stamp = requestStamp();
		process(() => {
			if (image) {
				images.set(image.id, { status: 'done', result: image });
				item.moderation = image;
			} else {
				const text: TextModeration = { id: randomUUID(), ...analyzeText(input.content), request: stamp, meta: input.meta ?? null };
				texts.set(text.id, text);
				item.moderation = text;
			}
			item.status = 'pending';
			item.accepted = true;
		});
		return { status: 202, body: { id: item.id, status: 'processing' } };
	}

	function getQueueItem(params: Record<string, string>): Reply {
		const queueId = requirePathId(params.queueId, 'queueId');
		const itemId = requirePathId(params.itemId, 'itemId');
		const entry = items.get(itemId);
		if (!entry || entry.queueId !== queueId) {
			throw new MockApiError(404, 'not_found', `No item ${itemId} in queue ${queueId}`);
		}
		return { status: 200, body: entry.item };
	}

	function getText(params: Record<string, string>): Reply {
		const id = requirePathId(params.id, 'id');
		const text = texts.get(id);
		if (!text) throw new MockApiError(404, 'not_found', `No text moderation with id ${id}`);
		return { status: 200, body: text };
	}

	function deleteText(params: Record<string, string>): Reply {
		const id = requirePathId(params.id, 'id');
		if (!texts.delete(id)) throw new MockApiError(404, 'not_found', `No text moderation with id ${id}`);
		return { status: 200, body: { id, deleted: true } };
	}

	const routes: Route[] = [
		{ pattern: ['image'], methods: { POST: postImage } },
		{ pattern: ['image', ':id'], methods: { GET: getImage } },
		{ pattern: ['queues', ':queueId'], methods: { POST: postQueueItem } },
		{ pattern: ['queues', ':queueId', 'items', ':itemId'], methods: { GET: getQueueItem } },
		{ pattern: ['text', ':id'], methods: { GET: getText, DELETE: deleteText } },
	];

	function dispatch(method: string, path: string, request: ParsedRequest): Reply {
		const segments = path.split('/').slice(1);
		for (const route of routes) {
			if (route.pattern.length !== segments.length || path[0] !== '/') continue;
			const params: Record<string, string> = {};
			const matched = route.pattern.every((part, i) => {
				if (!part.startsWith(':')) return part === segments[i];
				try {
					params[part.slice(1)] = decodeURIComponent(segments[i]);
				} catch {
					throw new MockApiError(400, 'invalid_path_parameter', `${part.slice(1)} is not valid percent-encoding`, part.slice(1));
				}
				return true;
			});
			if (!matched) continue;
			const handler = route.methods[method];
			if (!handler) {
				const allow = Object.keys(route.methods).join(', ');
				throw new MockApiError(405, 'method_not_allowed', `${method} is not allowed on this path (allowed: ${allow})`, undefined, {
					allow,
				});
			}
			return handler(params, request);
		}
		throw new MockApiError(404, 'not_found', `No route for ${method} ${path}`);
	}

	function errorReply(error: MockApiError): Reply {
		return { status: error.status, body: error.toBody(), headers: error.headers };
	}

	function handle(req: IncomingMessage, res: ServerResponse, request: ParsedRequest, time: number): void {
		const method = request.method;
		const { path, query } = splitTarget(req.url ?? '/');
		let reply = gate();
		if (!reply) {
			try {
				authenticate(request.headers);
				reply = dispatch(method, path, request);
			} catch (error) {
				if (error instanceof MockApiError) reply = errorReply(error);
				else reply = errorReply(new MockApiError(500, 'internal_error', `Mock failure: ${(error as Error).message}`));
			}
		}
		const send = (answer: Reply) => {
			if (options.record) {
				requests.push({
					method,
					path,
					query,
					headers: { ...req.headers },
					body: request.tooLarge ? undefined : parseBody(request.raw),
					status: answer.status,
					time,
				});
			}
			if (res.destroyed || res.writableEnded) return;
			const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
			res.writeHead(answer.status, {
				...answer.headers,
				'content-type': 'application/json; charset=utf-8',
				'content-length': Buffer.byteLength(payload),
			});
			res.end(payload);
		};
		if (options.latencyMs > 0) later(options.latencyMs, () => send(reply));
		else send(reply);
	}

	const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
		const time = Date.now();
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > options.maxBodyBytes) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => {
			const request: ParsedRequest = {
				method: req.method ?? 'GET',
				headers: req.headers,
				raw: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks),
				tooLarge,
			};
			handle(req, res, request, time);
		});
		req.on('error', () => res.destroy());
	});
	server.keepAliveTimeout = 30_000;
	server.headersTimeout = 35_000;
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	let stopped: Promise<void> | undefined;

	return {
		url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
		port,
		token: options.token,
		requests,
		callbacks,
		submissions,
		submissionLog,
		configure(changes: RuntimeOptions) {
			const next = { ...options };
			for (const [key, value] of Object.entries(changes)) {
				if (value !== undefined) (next as Record<string, unknown>)[key] = value;
			}
			checkOptions(next);
			Object.assign(options, next);
		},
		async whenIdle(timeoutMs = 10_000) {
			const deadline = Date.now() + timeoutMs;
			// Polls every 10 ms: a finished job can start a delivery, so both must be seen empty together.
			while (processing > 0 || deliverer.pending > 0) {
				if (Date.now() > deadline) throw new Error(`mock service still busy after ${timeoutMs} ms`);
				await new Promise((resolve) => setTimeout(resolve, 10));
			}
		},
		reset() {
			requests.length = 0;
			callbacks.length = 0;
			submissions.clear();
			submissionLog.length = 0;
			faultCredit = 0;
			throttleCredit = 0;
			windowStart = 0;
			windowCount = 0;
		},
		stop() {
			stopped ??= (async () => {
				for (const timer of timers) clearTimeout(timer);
				timers.clear();
				processing = 0;
				const closed = new Promise<void>((resolve) => server.close(() => resolve()));
				for (const socket of sockets) socket.destroy();
				server.closeAllConnections();
				await Promise.all([closed, deliverer.close()]);
			})();
			return stopped;
		},
	};
}
