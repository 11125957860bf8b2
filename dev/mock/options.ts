/** The mock's settings: defaults, the ones that can change while it runs, and their range checks. */
export interface MockServiceOptions {
	/** 0 (default) picks a free port */
	port?: number;
	host?: string;
	/**
	 * The listen backlog: connections the kernel holds for the server before it accepts them. Node's default,
	 * 511, is nginx's on Linux too; a burst of new connections above it loses the extra ones' SYNs, and
	 * their senders retry a second later (Linux's initial RTO). n8n opens a new connection per request.
	 */
	backlog?: number;
	token?: string;
	/** Added before every response */
	latencyMs?: number;
	/** How long a deferred image or an image queue item takes to process */
	processMs?: number;
	/** How long a deferred text or a text queue item takes; null (default) = `processMs`. Lets a test slow texts alone. */
	textProcessMs?: number | null;
	/**
	 * How long an immediate `POST /text` works before it answers the result, added to `latencyMs`; the
	 * request counts against `capacity` meanwhile. 0 (default) keeps tests fast.
	 */
	textModerateMs?: number;
	/**
	 * Up to this much more per deferred image or text, from a seeded generator (the same sequence on every
	 * run), so that results complete, and callbacks go out, in another order than the submissions
	 */
	processJitterMs?: number;
	/**
	 * The account's webhook URL (the vendor's dashboard setting): where `queue.review.completed` goes when a
	 * review decision is made, and every deferred result as `moderation.completed`. null (default): nowhere.
	 */
	webhookUrl?: string | null;
	/**
	 * The request key the service reads metadata from: the API reference names `meta`, the vendor's SDK
	 * sends `metadata`. `both` (default) reads `meta` when present, else `metadata`. The key not read is
	 * ignored, never refused. Results and queue items return it as `meta`.
	 */
	metadataKey?: MetadataKey;
	/** Fraction (0..1) of requests answered 503 with Retry-After, before anything else happens */
	faultRate?: number;
	/** Fraction (0..1) of requests answered 429 with Retry-After, before anything else happens */
	throttleRate?: number;
	/**
	 * Fraction (0..1) of requests the service acts on and a proxy in front of it then answers 503 with a
	 * text page, no Retry-After (an upstream reset before its headers): what must never be sent again
	 */
	proxyFaultRate?: number;
	/** Retry-After seconds on faults and throttles (0 allowed) */
	retryAfterSeconds?: number;
	/**
	 * 0 (default): faults and throttles evenly spread (exactly their fraction, the same on every run);
	 * > 0: at random, from a generator seeded with this number (the same sequence on every run)
	 */
	faultSeed?: number;
	/**
	 * Requests the service works on at once; more are answered 503 at once, without Retry-After (a full
	 * service). 0 = no limit
	 */
	capacity?: number;
	/** Requests per second; over it 429. 0 = no limit. Fixed one-second windows unless rateLimitBurst is set */
	rateLimit?: number;
	/**
	 * When > 0, `rateLimit` is a token bucket instead: it holds at most this many requests and refills at
	 * `rateLimit` per second; an empty bucket answers 429 with Retry-After = seconds until the next token
	 * (whole seconds, at least 1, as HTTP's delay-seconds are). 0 = fixed windows
	 */
	rateLimitBurst?: number;
	callbackRetries?: number;
	callbackBackoffMs?: number;
	/** Per-attempt timeout of a callback delivery */
	callbackTimeoutMs?: number;
	/**
	 * The content type callbacks are sent with (default application/json; null: none). Senders label JSON in
	 * other ways too; lets a test see that receivers read the body whatever its label.
	 */
	callbackContentType?: string | null;
	/**
	 * The status of the answer to a deferred submission (`POST /image` or `POST /text` with `defer` or a
	 * callbackUrl). 200 (default) is what the vendor documents; another value is a deliberate deviation, so
	 * that the contract check can be seen to name the line that differs.
	 */
	deferredStatus?: number;
	/** Largest accepted request body; over it 413 */
	maxBodyBytes?: number;
	/** Whether to keep `requests`/`callbacks`/`submissions` (the CLI turns it off: nobody can read them) */
	record?: boolean;
}

export type MetadataKey = 'meta' | 'metadata' | 'both';

export type ResolvedOptions = Required<MockServiceOptions>;

export const DEFAULT_OPTIONS: ResolvedOptions = {
	port: 0,
	host: '127.0.0.1',
	backlog: 511,
	token: 'test-token',
	latencyMs: 0,
	processMs: 200,
	textProcessMs: null,
	textModerateMs: 0,
	processJitterMs: 0,
	webhookUrl: null,
	metadataKey: 'both',
	faultRate: 0,
	throttleRate: 0,
	proxyFaultRate: 0,
	retryAfterSeconds: 1,
	faultSeed: 0,
	capacity: 0,
	rateLimit: 0,
	rateLimitBurst: 0,
	callbackRetries: 3,
	callbackBackoffMs: 100,
	callbackTimeoutMs: 5_000,
	callbackContentType: 'application/json',
	deferredStatus: 200,
	maxBodyBytes: 10 * 1024 * 1024,
	record: true,
};

/** Options that can change while the service runs (see `configure`). */
export type RuntimeOptions = Pick<
	MockServiceOptions,
	| 'latencyMs'
	| 'processMs'
	| 'textProcessMs'
	| 'textModerateMs'
	| 'processJitterMs'
	| 'webhookUrl'
	| 'metadataKey'
	| 'faultRate'
	| 'throttleRate'
	| 'proxyFaultRate'
	| 'retryAfterSeconds'
	| 'faultSeed'
	| 'capacity'
	| 'rateLimit'
	| 'rateLimitBurst'
	| 'callbackRetries'
	| 'callbackBackoffMs'
	| 'callbackTimeoutMs'
	| 'callbackContentType'
	| 'deferredStatus'
>;

function checkOptions(options: ResolvedOptions): void {
	for (const key of ['faultRate', 'throttleRate', 'proxyFaultRate'] as const) {
		const value = options[key];
		if (!(value >= 0 && value <= 1)) throw new RangeError(`${key} must be between 0 and 1`);
	}
	for (const key of [
		'latencyMs',
		'processMs',
		'textModerateMs',
		'processJitterMs',
		'retryAfterSeconds',
		'faultSeed',
		'capacity',
		'rateLimit',
		'rateLimitBurst',
		'backlog',
		'callbackRetries',
		'callbackBackoffMs',
		'callbackTimeoutMs',
	] as const) {
		const value = options[key];
		if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${key} must be a number >= 0`);
	}
	if (!options.token) throw new RangeError('token must not be empty');
	const deferred = options.deferredStatus;
	if (!(Number.isInteger(deferred) && deferred >= 200 && deferred <= 299)) throw new RangeError('deferredStatus must be a 2xx status');
	const text = options.textProcessMs;
	if (text !== null && !(Number.isFinite(text) && text >= 0)) throw new RangeError('textProcessMs must be a number >= 0 or null');
	if (!['meta', 'metadata', 'both'].includes(options.metadataKey)) {
		throw new RangeError('metadataKey must be meta, metadata or both');
	}
	const type = options.callbackContentType;
	if (type !== null && !(typeof type === 'string' && type.trim() !== '')) throw new RangeError('callbackContentType must be a non-empty string or null');
	const hook = options.webhookUrl;
	if (hook !== null && !isHttpUrl(hook)) throw new RangeError('webhookUrl must be an absolute http(s) URL or null');
}

export function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

/** `base` with the defined values of `changes` over it, checked; throws a RangeError before changing anything. */
export function withOptions(base: ResolvedOptions, changes: MockServiceOptions): ResolvedOptions {
	const next = { ...base };
	for (const [key, value] of Object.entries(changes)) {
		if (value !== undefined) (next as Record<string, unknown>)[key] = value;
	}
	checkOptions(next);
	return next;
}
