import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';

const CALLBACK_USER_AGENT = 'content-moderation-mock/1.0 (n8n-nodes-content-moderation test service)';

/** One delivery attempt of a callback (`moderation.completed`) or a review announcement (`queue.review.completed`). */
export interface CallbackAttempt {
	/** The moderation id, or the queue item id for `queue.review.completed` */
	moderationId: string;
	event: string;
	url: string;
	/** 1 for the first try, 2 for the first retry, ... */
	attempt: number;
	/** HTTP status the receiver answered, when it answered */
	status?: number;
	/** Network error code or message, when it did not */
	error?: string;
	/** Whether the receiver answered 2xx */
	ok: boolean;
	/** Epoch ms when the attempt started */
	time: number;
	durationMs: number;
}

interface DeliverySettings {
	retries: number;
	backoffMs: number;
	timeoutMs: number;
	/** null: sent without a content type */
	contentType: string | null;
}

/**
 * Delivers callbacks as `{ event, data }` (the vendor SDK's WebhookBody): every delivery runs on its own (they are never serialised), over one undici
 * Agent with no per-origin connection cap. A non-2xx answer or a network error is retried after
 * backoffMs * 2^(attempt-1).
 */
export class CallbackDeliverer {
	private readonly agent = new Agent({ keepAliveTimeout: 4_000, connections: null });
	private readonly abort = new AbortController();
	private readonly inFlight = new Set<Promise<void>>();
	/** Deliveries under way per moderation (or queue item) id, and the ids with one over */
	private readonly underWay = new Map<string, number>();
	private readonly over = new Set<string>();

	constructor(
		private readonly settings: () => DeliverySettings,
		private readonly record: (attempt: CallbackAttempt) => void,
	) {}

	get pending(): number {
		return this.inFlight.size;
	}

	/** Whether each id has had a delivery and none of its deliveries is still under way (retries included). */
	deliveredAll(ids: Iterable<string>): boolean {
		for (const id of ids) if (!this.over.has(id) || this.underWay.has(id)) return false;
		return true;
	}

	deliver(moderationId: string, url: string, event: string, data: unknown): void {
		const body = JSON.stringify({ event, data });
		this.underWay.set(moderationId, (this.underWay.get(moderationId) ?? 0) + 1);
		const run: Promise<void> = this.run(moderationId, url, event, body).finally(() => {
			this.inFlight.delete(run);
			const left = (this.underWay.get(moderationId) ?? 1) - 1;
			if (left > 0) this.underWay.set(moderationId, left);
			else this.underWay.delete(moderationId);
			this.over.add(moderationId);
		});
		this.inFlight.add(run);
	}

	/** Resolves when every delivery started so far has finished (or was cancelled). */
	async settled(): Promise<void> {
		await Promise.all([...this.inFlight]);
	}

	async close(): Promise<void> {
		this.abort.abort();
		await this.settled();
		await this.agent.destroy();
	}

	private async run(moderationId: string, url: string, event: string, body: string): Promise<void> {
		const { retries, backoffMs, timeoutMs, contentType } = this.settings();
		const type = contentType === null ? {} : { 'content-type': contentType };
		const signal = this.abort.signal;
		for (let attempt = 1; attempt <= retries + 1 && !signal.aborted; attempt++) {
			const time = Date.now();
			const entry: CallbackAttempt = { moderationId, event, url, attempt, ok: false, time, durationMs: 0 };
			try {
				const response = await request(url, {
					method: 'POST',
					headers: { ...type, 'user-agent': CALLBACK_USER_AGENT },
					body: Buffer.from(body),
					dispatcher: this.agent,
					signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
					headersTimeout: timeoutMs,
					bodyTimeout: timeoutMs,
				});
				await response.body.dump();
				entry.status = response.statusCode;
				entry.ok = response.statusCode >= 200 && response.statusCode < 300;
			} catch (error) {
				if (signal.aborted) return;
				entry.error = (error as { code?: string }).code ?? (error as Error).message;
			}
			entry.durationMs = Date.now() - time;
			this.record(entry);
			if (entry.ok || attempt > retries) return;
			try {
				await delay(backoffMs * 2 ** (attempt - 1), undefined, { signal });
			} catch {
				return;
			}
		}
	}
}
