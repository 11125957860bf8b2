/** Starts the mock service: an HTTP server on 127.0.0.1 that answers the service's endpoints. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { CallbackDeliverer, type CallbackAttempt } from './callbacks';
import { CONTROL_PREFIX, controlRoutes } from './control';
import { serviceEndpoints, type Decision, type QueueItem } from './endpoints';
import { MockApiError } from './errors';
import { authenticate, TrafficGate } from './gates';
import { dispatch, errorReply, parseBody, splitTarget, type ParsedRequest, type Reply } from './http';
import { DEFAULT_OPTIONS, withOptions, type MockServiceOptions, type RuntimeOptions } from './options';
import { Recorder, type RequestRecord, type SubmissionRecord } from './records';
import { Scheduler } from './scheduler';
import { waitFor } from '../wait';

// Every choice the mock makes where the spec says "not shown" is written down in docs/service-interface.md.


/** What an Envoy proxy answers when its upstream reset the connection before its headers. */
const PROXY_PAGE = 'upstream connect error or disconnect/reset before headers. reset reason: connection termination';

export type { MockServiceOptions } from './options';
export type { Decision, QueueItem } from './endpoints';

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
	/** Requests read and not yet answered, now and at most since the last reset (counted here, at the service) */
	traffic: { inFlight: number; peakInFlight: number };
	/** Changes timing/fault options and the account settings (webhookUrl, metadataKey) of the running service */
	configure(options: RuntimeOptions): void;
	/**
	 * A person's decision on a pending review-queue item: the item reads `status: decision` and
	 * `accepted: decision === 'accepted'`, and `{event: "queue.review.completed", data: item}` goes to the
	 * account webhook URL (when set). Returns the item; throws a MockApiError (404, 409, 400) as the HTTP
	 * endpoint answers.
	 */
	decide(queueId: string, itemId: string, decision: Decision): QueueItem;
	/**
	 * Deferred results and queue items whose processing time runs out are held (still `processing`, no callback) until
	 * `releaseResults()`, which completes them in that order: a test decides when results are ready.
	 */
	holdResults(): void;
	releaseResults(): void;
	/**
	 * Holds only the deferred results whose image URL or text `matches`, whatever holdResults and
	 * releaseResults do meanwhile (a test that runs beside others); returns its release. Held jobs do not
	 * count for whenIdle.
	 */
	holdResultsOf(matches: (subject: string) => boolean): () => void;
	/** Resolves once no job is processing and no callback delivery is in flight; rejects after timeoutMs */
	whenIdle(timeoutMs?: number): Promise<void>;
	/**
	 * Resolves once each of `ids` (moderation or queue item ids) has been called back and none of its
	 * deliveries is under way, whatever other deliveries still retry; rejects after timeoutMs.
	 */
	whenDelivered(ids: Iterable<string>, timeoutMs?: number): Promise<void>;
	/** Clears requests, callbacks, submissions and the fault/throttle/rate-limit counters (not stored results) */
	reset(): void;
	stop(): Promise<void>;
}

/** Sees every exchange as it starts (the bench draws traffic over time from these). */
export type ExchangeObserver = (req: IncomingMessage, res: ServerResponse) => void;

/** Starts the mock on host:port and resolves once it accepts requests. */
export async function startMockService(
	opts: MockServiceOptions & { onExchange?: ExchangeObserver } = {},
): Promise<MockService> {
	const { onExchange, ...settings } = opts;
	const options = withOptions(DEFAULT_OPTIONS, settings);
	const recorder = new Recorder(() => options.record);
	const gate = new TrafficGate(options);
	const scheduler = new Scheduler();
	const deliverer = new CallbackDeliverer(
		() => ({
			retries: options.callbackRetries,
			backoffMs: options.callbackBackoffMs,
			timeoutMs: options.callbackTimeoutMs,
			contentType: options.callbackContentType,
		}),
		(attempt) => recorder.callback(attempt),
	);
	const service = serviceEndpoints({ options, scheduler, deliverer, recorder });
	const configure = (changes: RuntimeOptions) => {
		Object.assign(options, withOptions(options, changes));
	};
	const routes = [...service.routes, ...controlRoutes({ options, decide: service.decide, configure })];
	const traffic = { inFlight: 0, peakInFlight: 0 };
	/** Requests answered after the latency, still waiting for it (what `capacity` counts). */
	let working = 0;

	function handle(req: IncomingMessage, res: ServerResponse, request: ParsedRequest, time: number): void {
		const method = request.method;
		const { path, query } = splitTarget(req.url ?? '/');
		// The mock's own endpoints stand for the vendor's dashboard: no simulated limits, faults or latency.
		const control = path.startsWith(CONTROL_PREFIX);
		// A full service refuses what is over its capacity at once, without Retry-After.
		const full = !control && options.capacity > 0 && working >= options.capacity;
		const refused = full
			? new MockApiError(503, 'service_unavailable', 'The service is at capacity (simulated)')
			: control
				? undefined
				: gate.check();
		let reply: Reply;
		if (refused) reply = errorReply(refused);
		else {
			try {
				authenticate(request.headers, options.token);
				reply = dispatch(routes, method, path, request);
				// The service acted; the proxy in front of it lost the answer.
				if (!control && gate.proxyFault()) reply = { status: 503, text: PROXY_PAGE, workMs: reply.workMs };
			} catch (error) {
				if (error instanceof MockApiError) reply = errorReply(error);
				else reply = errorReply(new MockApiError(500, 'internal_error', `Mock failure: ${(error as Error).message}`));
			}
		}
		const send = (answer: Reply) => {
			recorder.request({
				method,
				path,
				query,
				headers: { ...req.headers },
				body: request.tooLarge ? undefined : parseBody(request.raw),
				status: answer.status,
				time,
			});
			if (res.destroyed || res.writableEnded) return;
			const payload = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
			res.writeHead(answer.status, {
				...answer.headers,
				'content-type': answer.text === undefined ? 'application/json; charset=utf-8' : 'text/plain',
				'content-length': Buffer.byteLength(payload),
			});
			res.end(payload);
		};
		const wait = options.latencyMs + (reply.workMs ?? 0);
		if (full || control) send(reply);
		else if (wait > 0) {
			working++;
			scheduler.later(wait, () => {
				working--;
				send(reply);
			});
		} else send(reply);
	}

	const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
		const time = Date.now();
		// From the first byte read to the answer (or a dropped connection).
		traffic.inFlight++;
		traffic.peakInFlight = Math.max(traffic.peakInFlight, traffic.inFlight);
		let counted = true;
		const done = () => {
			if (counted) traffic.inFlight--;
			counted = false;
		};
		res.on('finish', done);
		res.on('close', done);
		onExchange?.(req, res);
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
		server.listen({ port: options.port, host: options.host, backlog: options.backlog }, () => {
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
		requests: recorder.requests,
		callbacks: recorder.callbacks,
		submissions: recorder.submissions,
		submissionLog: recorder.submissionLog,
		traffic,
		configure,
		decide: (queueId, itemId, decision) => service.decide(queueId, itemId, decision),
		holdResults: () => scheduler.hold(),
		releaseResults: () => scheduler.release(),
		holdResultsOf: (matches) => scheduler.holdSome(matches),
		async whenIdle(timeoutMs = 10_000) {
			// Polls every 10 ms: a finished job can start a delivery, so both must be seen empty together.
			const idle = () => (scheduler.processing === 0 && deliverer.pending === 0 ? true : undefined);
			await waitFor('the mock service to be idle', idle, timeoutMs, 10);
		},
		async whenDelivered(ids, timeoutMs = 10_000) {
			const list = [...ids];
			await waitFor(`the callbacks of ${list.length} moderations to be delivered`, () => (deliverer.deliveredAll(list) ? true : undefined), timeoutMs, 10);
		},
		reset() {
			recorder.clear();
			gate.reset();
			traffic.peakInFlight = traffic.inFlight;
		},
		stop() {
			stopped ??= (async () => {
				scheduler.cancelAll();
				const closed = new Promise<void>((resolve) => server.close(() => resolve()));
				for (const socket of sockets) socket.destroy();
				server.closeAllConnections();
				await Promise.all([closed, deliverer.close()]);
			})();
			return stopped;
		},
	};
}
