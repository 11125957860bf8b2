/** What the mock keeps for tests to read: requests, callback attempts and the content it acted on. */
import type { CallbackAttempt } from './callbacks';

export interface RequestRecord {
	method: string;
	/** Path without the query string, as sent (not decoded) */
	path: string;
	query: Record<string, string>;
	/** Lower-cased names, as node:http gives them */
	headers: Record<string, string | string[] | undefined>;
	/**
	 * Parsed JSON, the same value the service read and stored from (so never change it); the raw text when it
	 * is not JSON; undefined when there was no body
	 */
	body: unknown;
	/** Status the mock answered */
	status: number;
	/** Epoch ms when the request was read */
	time: number;
}

/** One piece of content the service acted on (an accepted image or text submission, or queue item). */
export interface SubmissionRecord {
	kind: 'image' | 'text' | 'queue';
	/** Moderation id (image, text; an immediate image's id is the mock's own, never answered) or item id (queue) */
	id: string;
	queueId?: string;
	type: 'text' | 'image';
	/** SHA-256 of the content, as the result's `hash` */
	hash: string;
	actorId?: string;
	meta?: unknown;
	time: number;
}

/** Keeps records only while `enabled()` says so (the CLI turns recording off). */
export class Recorder {
	readonly requests: RequestRecord[] = [];
	readonly callbacks: CallbackAttempt[] = [];
	/** Counts by `hash:<sha256>`, `actor:<actorId>`, `meta:<JSON>`; above 1 = content acted on twice. */
	readonly submissions = new Map<string, number>();
	readonly submissionLog: SubmissionRecord[] = [];

	constructor(private readonly enabled: () => boolean) {}

	request(entry: RequestRecord): void {
		if (this.enabled()) this.requests.push(entry);
	}

	callback(attempt: CallbackAttempt): void {
		if (this.enabled()) this.callbacks.push(attempt);
	}

	submission(entry: Omit<SubmissionRecord, 'time'>): void {
		if (!this.enabled()) return;
		this.submissionLog.push({ ...entry, time: Date.now() });
		const keys = [`hash:${entry.hash}`];
		if (entry.actorId !== undefined) keys.push(`actor:${entry.actorId}`);
		if (entry.meta !== undefined) keys.push(`meta:${JSON.stringify(entry.meta)}`);
		for (const key of keys) this.submissions.set(key, (this.submissions.get(key) ?? 0) + 1);
	}

	clear(): void {
		this.requests.length = 0;
		this.callbacks.length = 0;
		this.submissions.clear();
		this.submissionLog.length = 0;
	}
}
