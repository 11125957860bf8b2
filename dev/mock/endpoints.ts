/** The service's endpoints over in-memory stores: images, texts and queue items; deferred work and callbacks. */
import { randomUUID } from 'node:crypto';

import { sha256, type ImageResult, type TextModeration } from './analysis';
import { analyzeImage } from './image-analysis';
import type { CallbackDeliverer } from './callbacks';
import { MockApiError } from './errors';
import { jsonBody, type ParsedRequest, type Reply, type Route } from './http';
import type { ResolvedOptions } from './options';
import type { Recorder } from './records';
import type { Scheduler } from './scheduler';
import { analyzeText } from './text-analysis';
import { requirePathId, validateImageRequest, validateQueueRequest, type ImageInput } from './validation';

interface ImageJob {
	status: 'processing' | 'done';
	result: ImageResult;
}

interface QueueItem {
	id: string;
	type: 'text' | 'image';
	accepted: boolean;
	/** `pending` while processing (the spec's sample), then `options.processedStatus`. */
	status: 'pending' | 'completed';
	content: string;
	/** The full result, or only `{ id }` with `queueModeration: 'id'`; null until processed. */
	moderation: ImageResult | TextModeration | { id: string } | null;
}

interface Services {
	options: ResolvedOptions;
	scheduler: Scheduler;
	deliverer: CallbackDeliverer;
	recorder: Recorder;
}

/** The routes of the service; stored results live as long as the returned routes. */
export function serviceRoutes({ options, scheduler, deliverer, recorder }: Services): Route[] {
	const images = new Map<string, ImageJob>();
	const texts = new Map<string, TextModeration>();
	const items = new Map<string, { queueId: string; item: QueueItem }>();

	const body = (request: ParsedRequest) => jsonBody(request, options.maxBodyBytes);
	// Park-Miller generator with a fixed seed: the jitter sequence is the same on every run.
	let jitterSeed = 1;
	const processTime = (): number => {
		if (options.processJitterMs <= 0) return options.processMs;
		jitterSeed = (jitterSeed * 48271) % 2147483647;
		return options.processMs + (jitterSeed % (options.processJitterMs + 1));
	};
	const requestStamp = (): ImageResult['request'] => ({ requestId: randomUUID(), timestamp: new Date().toISOString() });

	function imageResult(image: ImageInput, meta: unknown, field: string): ImageResult {
		// analyzeImage throws a 400 for a malformed mock_* parameter, before anything is stored.
		const analysis = analyzeImage(image, field);
		return { id: randomUUID(), ...analysis, request: requestStamp(), meta: meta ?? null };
	}

	function postImage(_params: Record<string, string>, request: ParsedRequest): Reply {
		const input = validateImageRequest(body(request));
		const result = imageResult(input.image, input.meta, 'image');
		recorder.submission({
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
		scheduler.process(processTime(), () => {
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
		// Identifier path parameters have at least 3 characters (spec 8), the queue id here too.
		const queueId = requirePathId(params.queueId, 'queueId');
		const input = validateQueueRequest(body(request));
		const image = input.image ? imageResult(input.image, input.meta, 'content') : undefined;
		const item: QueueItem = {
			id: randomUUID(),
			type: input.type,
			accepted: false,
			status: 'pending',
			content: input.content,
			moderation: null,
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
		const stamp = requestStamp();
		const ms = image ? options.processMs : (options.textProcessMs ?? options.processMs);
		scheduler.process(ms, () => {
			let result: ImageResult | TextModeration;
			if (image) {
				images.set(image.id, { status: 'done', result: image });
				result = image;
			} else {
				result = { id: randomUUID(), ...analyzeText(input.content), request: stamp, meta: input.meta ?? null };
				texts.set(result.id, result);
			}
			// Read at completion, like the status: `id` gives the reading where only the id is there.
			item.moderation = options.queueModeration === 'id' ? { id: result.id } : result;
			// Read at completion, so a test can switch the reading while the service runs.
			item.status = options.processedStatus;
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

	return [
		{ pattern: ['image'], methods: { POST: postImage } },
		{ pattern: ['image', ':id'], methods: { GET: getImage } },
		{ pattern: ['queues', ':queueId'], methods: { POST: postQueueItem } },
		{ pattern: ['queues', ':queueId', 'items', ':itemId'], methods: { GET: getQueueItem } },
		{ pattern: ['text', ':id'], methods: { GET: getText, DELETE: deleteText } },
	];
}
