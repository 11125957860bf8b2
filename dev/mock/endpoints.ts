/**
 * The service's endpoints over in-memory stores: images, texts and review-queue items; deferred work,
 * callbacks and review decisions.
 */
import { randomUUID } from 'node:crypto';

import { sha256, type ImageResult, type TextModeration } from './analysis';
import { analyzeImage, moderationFails } from './image-analysis';
import type { CallbackDeliverer } from './callbacks';
import { MockApiError } from './errors';
import { jsonBody, type ParsedRequest, type Reply, type Route } from './http';
import type { ResolvedOptions } from './options';
import type { Recorder } from './records';
import type { Scheduler } from './scheduler';
import { analyzeText } from './text-analysis';
import {
	requireQueueId,
	requireUuid,
	validateImageRequest,
	validateQueueRequest,
	validateTextRequest,
	type ImageInput,
} from './validation';

export const EVENT_MODERATION_COMPLETED = 'moderation.completed';
export const EVENT_QUEUE_REVIEW_COMPLETED = 'queue.review.completed';

export type Decision = 'accepted' | 'rejected';

/** An image result with its id: what a callback and a queue item carry (the API reference's reads have no id). */
export type IdentifiedImageResult = ImageResult & { id: string };

interface Stored<T> {
	status: 'processing' | 'done';
	result: T;
}

/** The API reference's statuses (`pending`, `accepted`, `rejected`, `error`) and the SDK's `processing`. */
export type QueueItemStatus = 'processing' | 'pending' | Decision | 'error';

export interface QueueItem {
	id: string;
	type: 'text' | 'image';
	accepted: boolean;
	status: QueueItemStatus;
	content: string;
	/** The full text result, or the image result with its id; null while processing and on error. */
	moderation: IdentifiedImageResult | TextModeration | null;
	/** The request's metadata as sent (an object, or a string kept as a string); null when none. */
	meta: unknown;
}

interface Services {
	options: ResolvedOptions;
	scheduler: Scheduler;
	deliverer: CallbackDeliverer;
	recorder: Recorder;
}

export interface ServiceEndpoints {
	routes: Route[];
	/** A person's review decision on a pending queue item; announced at the account webhook URL. */
	decide(queueId: string, itemId: string, decision: Decision): QueueItem;
}

/** The routes of the service; stored results live as long as the returned routes. */
export function serviceEndpoints({ options, scheduler, deliverer, recorder }: Services): ServiceEndpoints {
	const images = new Map<string, Stored<ImageResult>>();
	const texts = new Map<string, Stored<TextModeration>>();
	const items = new Map<string, { queueId: string; item: QueueItem }>();

	const body = (request: ParsedRequest) => jsonBody(request, options.maxBodyBytes);
	// Park-Miller generator with a fixed seed: the jitter sequence is the same on every run.
	let jitterSeed = 1;
	const processTime = (base: number): number => {
		if (options.processJitterMs <= 0) return base;
		jitterSeed = (jitterSeed * 48271) % 2147483647;
		return base + (jitterSeed % (options.processJitterMs + 1));
	};
	const textTime = () => options.textProcessMs ?? options.processMs;
	const requestStamp = (): ImageResult['request'] => ({ requestId: randomUUID(), timestamp: new Date().toISOString() });
	const deferred = (input: { defer?: boolean; callbackUrl?: string }) => input.defer === true || input.callbackUrl !== undefined;

	function imageResult(image: ImageInput, meta: unknown, field: string): ImageResult {
		// analyzeImage throws a 400 for a malformed mock_* parameter, before anything is stored.
		return { ...analyzeImage(image, field), request: requestStamp(), meta: meta ?? null };
	}

	function textResult(text: string, bannedWords: string[], meta: unknown, actorId: string | undefined): TextModeration {
		const { filteredContent, content, hash, ...analysis } = analyzeText(text, bannedWords);
		const result: TextModeration = {
			id: randomUUID(),
			...analysis,
			filteredContent,
			content,
			original: text,
			request: requestStamp(),
			meta: meta ?? null,
			hash,
		};
		if (actorId !== undefined) result.actorId = actorId;
		return result;
	}

	const processing = (id: string): Reply => ({ status: 200, body: { id, status: 'processing' } });

	/**
	 * A deferred result goes to the request's callbackUrl and, when one is set, to the account webhook (the
	 * vendor: a deferred result is sent "later in a webhook that you have set up"). With both, each gets it:
	 * the vendor does not say that one replaces the other, and a client must cope with the wider case.
	 */
	function announce(id: string, callbackUrl: string | undefined, data: object): void {
		if (callbackUrl) deliverer.deliver(id, callbackUrl, EVENT_MODERATION_COMPLETED, data);
		if (options.webhookUrl) deliverer.deliver(id, options.webhookUrl, EVENT_MODERATION_COMPLETED, data);
	}

	function postImage(_params: Record<string, string>, request: ParsedRequest): Reply {
		const input = validateImageRequest(body(request), options.metadataKey);
		const result = imageResult(input.image, input.meta, 'image');
		const id = randomUUID();
		recorder.submission({ kind: 'image', id, type: 'image', hash: result.hash, actorId: input.actorId, meta: input.meta });
		// The API reference's immediate answer is the result without an id: nothing can read it back.
		if (!deferred(input)) return { status: 200, body: result };
		const job: Stored<ImageResult> = { status: 'processing', result };
		images.set(id, job);
		scheduler.process(processTime(options.processMs), () => {
			job.status = 'done';
			announce(id, input.callbackUrl, { id, ...result });
		}, input.image.kind === 'url' ? input.image.url : '');
		return { status: options.deferredStatus, body: { id } };
	}

	function getImage(params: Record<string, string>): Reply {
		const id = requireUuid(params.id, 'id');
		const job = images.get(id);
		if (!job) throw new MockApiError(404, 'not_found', `No image moderation with id ${id}`);
		if (job.status === 'processing') return processing(id);
		return { status: 200, body: job.result };
	}

	function postText(_params: Record<string, string>, request: ParsedRequest): Reply {
		const input = validateTextRequest(body(request), options.metadataKey);
		const result = textResult(input.text, input.bannedWords, input.meta, input.actorId);
		recorder.submission({ kind: 'text', id: result.id, type: 'text', hash: result.hash, actorId: input.actorId, meta: input.meta });
		if (!deferred(input)) {
			texts.set(result.id, { status: 'done', result });
			return { status: 200, body: result, workMs: options.textModerateMs };
		}
		const job: Stored<TextModeration> = { status: 'processing', result };
		texts.set(result.id, job);
		scheduler.process(processTime(textTime()), () => {
			job.status = 'done';
			announce(result.id, input.callbackUrl, result);
		}, input.text);
		return { status: options.deferredStatus, body: { id: result.id } };
	}

	function getText(params: Record<string, string>): Reply {
		const id = requireUuid(params.id, 'id');
		const text = texts.get(id);
		if (!text) throw new MockApiError(404, 'not_found', `No text moderation with id ${id}`);
		if (text.status === 'processing') return processing(id);
		return { status: 200, body: text.result };
	}

	function deleteText(params: Record<string, string>): Reply {
		const id = requireUuid(params.id, 'id');
		if (!texts.delete(id)) throw new MockApiError(404, 'not_found', `No text moderation with id ${id}`);
		return { status: 200, body: { id, deleted: true } };
	}

	function postQueueItem(params: Record<string, string>, request: ParsedRequest): Reply {
		const queueId = requireQueueId(params.queueId);
		const input = validateQueueRequest(body(request), options.metadataKey);
		const image = input.image ? imageResult(input.image, input.meta, 'content') : undefined;
		const item: QueueItem = {
			id: randomUUID(),
			type: input.type,
			accepted: false,
			status: 'processing',
			content: input.content,
			moderation: null,
			meta: input.meta ?? null,
		};
		items.set(item.id, { queueId, item });
		recorder.submission({
			kind: 'queue',
			id: item.id,
			queueId,
			type: input.type,
			hash: image ? image.hash : sha256(input.content),
			actorId: input.actorId,
			meta: input.meta,
		});
		const fails = moderationFails(input.image ?? input.content);
		scheduler.process(image ? options.processMs : textTime(), () => {
			if (fails) {
				item.status = 'error';
				return;
			}
			if (image) {
				const id = randomUUID();
				images.set(id, { status: 'done', result: image });
				item.moderation = { id, ...image };
			} else {
				const result = textResult(input.content, [], input.meta, input.actorId);
				texts.set(result.id, { status: 'done', result });
				item.moderation = result;
			}
			// Moderated: now it waits for a person (the API reference's `pending`, `accepted: false`).
			item.status = 'pending';
		});
		return { status: 200, body: { id: item.id, status: 'processing' } };
	}

	function findItem(queueIdParam: string, itemIdParam: string): QueueItem {
		const queueId = requireQueueId(queueIdParam);
		const itemId = requireUuid(itemIdParam, 'itemId');
		const entry = items.get(itemId);
		if (!entry || entry.queueId !== queueId) {
			throw new MockApiError(404, 'not_found', `No item ${itemId} in queue ${queueId}`);
		}
		return entry.item;
	}

	function getQueueItem(params: Record<string, string>): Reply {
		// A snapshot: with latency the answer goes out later, and must show the item as it was read.
		return { status: 200, body: structuredClone(findItem(params.queueId, params.itemId)) };
	}

	function decide(queueId: string, itemId: string, decision: Decision): QueueItem {
		const item = findItem(queueId, itemId);
		if (decision !== 'accepted' && decision !== 'rejected') {
			throw new MockApiError(400, 'invalid_field', 'decision must be "accepted" or "rejected"', 'decision');
		}
		if (item.status !== 'pending') {
			throw new MockApiError(409, 'not_pending', `Item ${itemId} is ${item.status}; only a pending item can be decided`);
		}
		item.status = decision;
		item.accepted = decision === 'accepted';
		const webhookUrl = options.webhookUrl;
		if (webhookUrl) deliverer.deliver(item.id, webhookUrl, EVENT_QUEUE_REVIEW_COMPLETED, item);
		return structuredClone(item);
	}

	return {
		routes: [
			{ pattern: ['image'], methods: { POST: postImage } },
			{ pattern: ['image', ':id'], methods: { GET: getImage } },
			{ pattern: ['text'], methods: { POST: postText } },
			{ pattern: ['text', ':id'], methods: { GET: getText, DELETE: deleteText } },
			{ pattern: ['queues', ':queueId'], methods: { POST: postQueueItem } },
			{ pattern: ['queues', ':queueId', 'items', ':itemId'], methods: { GET: getQueueItem } },
		],
		decide,
	};
}
