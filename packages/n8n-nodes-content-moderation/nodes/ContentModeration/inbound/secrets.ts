/**
 * What the trigger knows between callbacks about each trigger's Callback Secret, so that it does not read
 * its credential on every callback (in a webhook, n8n builds a workflow and takes an expression isolate
 * for each credential read).
 *
 * Per trigger and credential only an HMAC-SHA256 of the secret is kept, keyed with a random key made when
 * the process starts and never stored: the secret cannot be read back or tested offline. An entry is
 * trusted for at most SECRET_TRUST_MS after the read it came from, so a changed or removed secret stops
 * the old one within that time; a token that does not match is checked against a fresh read before it
 * is refused, so a new secret works at once. Concurrent reads for one trigger share one read.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

/** The longest an old Callback Secret keeps working after it was changed or removed (README: Trigger). */
export const SECRET_TRUST_MS = 10_000;

/** Triggers remembered at most; the oldest go first beyond it. */
export const MAX_TRIGGERS = 1_000;

export interface SecretClock {
	now(): number;
}

/** A trigger's secret as last read: whether there is one, and whether a token is it. */
export interface KnownSecret {
	hasSecret: boolean;
	/** Constant time for a token of any length (both sides are HMACs). */
	accepts(token: string): boolean;
}

interface Entry {
	readAt: number;
	/** HMAC of the secret; undefined: the credential has no Callback Secret. */
	digest?: Buffer;
}

export class SecretChecks {
	private readonly key = randomBytes(32);
	private readonly entries = new Map<string, Entry>();
	private readonly reading = new Map<string, Promise<KnownSecret>>();

	constructor(
		private readonly clock: SecretClock,
		private readonly trustMs = SECRET_TRUST_MS,
		private readonly maxTriggers = MAX_TRIGGERS,
	) {}

	/** Triggers remembered now. */
	get size(): number {
		return this.entries.size;
	}

	/** Forgets everything, as a new process would. */
	clear(): void {
		this.entries.clear();
		this.reading.clear();
	}

	private digest(value: string): Buffer {
		return createHmac('sha256', this.key).update(value, 'utf8').digest();
	}

	private known(entry: Entry): KnownSecret {
		const { digest } = entry;
		return {
			hasSecret: digest !== undefined,
			accepts: (token) => digest !== undefined && timingSafeEqual(this.digest(token), digest),
		};
	}

	/** What was read for `trigger` less than SECRET_TRUST_MS ago, or undefined: read it (`learn`). */
	lookup(trigger: string): KnownSecret | undefined {
		const entry = this.entries.get(trigger);
		if (entry === undefined) return undefined;
		if (this.clock.now() - entry.readAt >= this.trustMs) {
			this.entries.delete(trigger);
			return undefined;
		}
		return this.known(entry);
	}

	/** Reads the secret (`read`: '' when none), remembers its HMAC; a read already under way is shared. */
	async learn(trigger: string, read: () => Promise<string>): Promise<KnownSecret> {
		const pending = this.reading.get(trigger);
		if (pending !== undefined) return await pending;
		const readAt = this.clock.now();
		const learning = read().then((secret) => {
			const entry: Entry = { readAt, digest: secret === '' ? undefined : this.digest(secret) };
			this.entries.delete(trigger);
			this.entries.set(trigger, entry);
			while (this.entries.size > this.maxTriggers) this.entries.delete(this.entries.keys().next().value as string);
			return this.known(entry);
		});
		this.reading.set(trigger, learning);
		try {
			return await learning;
		} finally {
			// A failed read is not kept: the next callback reads again.
			if (this.reading.get(trigger) === learning) this.reading.delete(trigger);
		}
	}
}

/** The registry of this process. */
export const secretChecks = new SecretChecks({ now: () => Date.now() });
