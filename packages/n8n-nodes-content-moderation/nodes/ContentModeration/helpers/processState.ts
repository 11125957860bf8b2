/**
 * Everything this n8n process keeps between runs and calls: each store, its bounds, its clock. Each process has
 * its own; none survives a restart. No timer: expired entries go when their store is next used.
 */
import { createHmac, randomBytes } from 'crypto';

import { BoundedMap, type Bounds } from './boundedMap';
import { systemClock } from './clock';

export const PROCESS_STATE = {
	/** Per trigger (workflow, webhook, credential), its credential as last read (inbound/secrets.ts), only in closures. */
	triggerCredentials: { maxEntries: 1_000, ttlMs: 10_000 },
	/** Per trigger, when its last credential read started: a wrong token re-reads at most once a second. */
	credentialReads: { maxEntries: 1_000, ttlMs: 1_000 },
	/** Per trigger, the credential read under way or waiting for its turn, shared by its callers. */
	credentialReadsUnderWay: { maxEntries: 1_000, ttlMs: Infinity },
	/** A hash per completion started or passed on (inbound/deliveries.ts), ~140 bytes; a day outlasts senders' retries. */
	startedCompletions: { maxEntries: 50_000, ttlMs: 24 * 60 * 60_000 },
	/** Completions handled now, until that ends or n8n says whether it started them: what runs bounds it. */
	completionsInFlight: { maxEntries: Infinity, ttlMs: Infinity },
	/** Per service, its limiter (limiter/registry.ts), until 5 min without a send or an answer; never one in use. */
	serviceLimiters: { maxEntries: Infinity, ttlMs: 5 * 60_000, expiry: 'idle' },
	/** Per waiting Wait for Callback run, its items' results, masked, until its Wait Timeout (1 h if none). */
	waitingRuns: { maxEntries: 1_000, ttlMs: 3_600_000, expiry: 'deadline' },
} as const satisfies Record<string, Bounds>;

export type StoreName = keyof typeof PROCESS_STATE;

/** Where an owner takes its stores: the process's, or a test's own. */
export type Stores = <V>(name: StoreName) => BoundedMap<string, V>;

const stores = new Map<StoreName, BoundedMap<string, unknown>>();

/** The process's store `name`, on the system clock. */
export const processStore: Stores = <V>(name: StoreName) => {
	if (!stores.has(name)) stores.set(name, new BoundedMap(PROCESS_STATE[name], systemClock));
	return stores.get(name) as BoundedMap<string, V>;
};

/** Forgets everything, as a new process would (tests start each case from there). */
export function resetProcessState(): void {
	for (const store of stores.values()) store.clear();
}

/** Made when the process starts, kept only here: a digest cannot be tested offline. */
const DIGEST_KEY = randomBytes(32);

/** A secret's HMAC-SHA256 under the process's key: 32 bytes, whatever the secret's length. */
export type SecretDigest = Buffer & { readonly secretDigest: true };

export function secretDigest(value: string): SecretDigest {
	return createHmac('sha256', DIGEST_KEY).update(value, 'utf8').digest() as SecretDigest;
}
