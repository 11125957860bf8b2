/**
 * The secret cache: what the trigger knows between callbacks about each trigger's credential, so that it
 * does not read the credential on every callback (in a webhook, n8n builds a workflow and takes an
 * expression isolate for each credential read), and so that a call without the right token costs little.
 *
 * Per trigger (workflow, webhook, credential) an entry holds, for at most SECRET_TRUST_MS after the read it
 * came from: whether there is a Callback Secret, its digest (inbound/token.ts), and the redaction of the
 * credential's secrets (the Secret Key and the Callback Secret), so that a call that reads nothing still
 * masks them in what leaves. The secrets live only in the entry's closures: inspecting or serializing the
 * registry shows none, nothing logs them, and they go with the entry when it expires or is evicted.
 *
 * Reads: at most one per REREAD_INTERVAL_MS per trigger, whether the last succeeded or failed, on a cold,
 * warm or expired cache; a read under way or waiting for its turn is shared by every caller. With nothing
 * known a call waits for that read. A call without a token while a secret is known is refused without a
 * read. A wrong token is checked against the next read: a new secret works within that interval, and wrong
 * tokens (or a credential that cannot be read) cost at most one read per interval.
 */
import { BoundedMap } from '../helpers/boundedMap';
import { systemClock, type Clock } from '../helpers/clock';
import { redactionFor, type Redaction } from '../redaction/redact';
import { isStrongSecret } from './secretRule';
import { checkGivenToken, sameSecret, secretDigest, type TokenCheck } from './token';

/** The longest an old Callback Secret keeps working after it was changed or removed (README: Trigger). */
export const SECRET_TRUST_MS = 10_000;

/** A wrong token re-reads the credential at most this often per trigger; a new secret waits at most this. */
export const REREAD_INTERVAL_MS = 1_000;

/** Triggers remembered at most; the oldest go first beyond it. */
export const MAX_TRIGGERS = 1_000;

/** What one credential read gives: the Callback Secret ('' when none) and every secret of the credential. */
export interface CredentialSecrets {
	callbackSecret: string;
	secrets: readonly string[];
}

/** A trigger's credential as last read. */
export interface KnownSecret {
	hasSecret: boolean;
	/** A Callback Secret long enough to accept callbacks in production (inbound/secretRule.ts). */
	strong: boolean;
	/** Constant time for a token of any length (sameSecret). */
	accepts(token: string): boolean;
	/** The redaction of the credential's secrets plus `more` (what the call carried as tokens). */
	redaction(more: readonly string[]): Redaction;
}

export interface SecretCheck {
	known: KnownSecret;
	check: TokenCheck;
}

interface Entry {
	readAt: number;
	known: KnownSecret;
}

/** The secrets stay in these closures; the redaction of the credential's own is compiled once. */
function knownFrom(read: CredentialSecrets): KnownSecret {
	const digest = read.callbackSecret === '' ? undefined : secretDigest(read.callbackSecret);
	const secrets = [...read.secrets, read.callbackSecret].filter((value) => value !== '');
	let own: Redaction | undefined;
	return {
		hasSecret: digest !== undefined,
		strong: isStrongSecret(read.callbackSecret),
		accepts: (token) => digest !== undefined && sameSecret(token, digest),
		redaction: (more) => {
			if (more.every((value) => value === '' || secrets.includes(value))) return (own ??= redactionFor(secrets));
			return redactionFor([...secrets, ...more]);
		},
	};
}

/** Without a Callback Secret every call is accepted. */
function decide(known: KnownSecret, given: readonly unknown[]): SecretCheck {
	return { known, check: known.hasSecret ? checkGivenToken(known.accepts, given) : { ok: true } };
}

/** What a failed read answers its callers. */
export class CredentialReadError extends Error {
	constructor() {
		super('The Content Moderation API credential could not be read');
	}
}

export class SecretCache {
	private readonly entries: BoundedMap<string, Entry>;
	/** When each trigger's last read started, whatever it gave: the next waits REREAD_INTERVAL_MS from it. */
	private readonly lastReads: BoundedMap<string, number>;
	/** A read under way or waiting for its turn, per trigger: every caller shares it. */
	private readonly reading = new Map<string, Promise<KnownSecret>>();

	constructor(
		private readonly clock: Clock = systemClock,
		private readonly trustMs = SECRET_TRUST_MS,
		private readonly rereadMs = REREAD_INTERVAL_MS,
		maxTriggers = MAX_TRIGGERS,
	) {
		this.entries = new BoundedMap(maxTriggers);
		this.lastReads = new BoundedMap(maxTriggers);
	}

	/** Triggers remembered now. */
	get size(): number {
		return this.entries.size;
	}

	/** Forgets everything, as a new process would. */
	clear(): void {
		this.entries.clear();
		this.lastReads.clear();
		this.reading.clear();
	}

	/** What was read for `trigger` less than the trust window ago; expired entries are dropped. */
	private lookup(trigger: string): KnownSecret | undefined {
		const now = this.clock.now();
		const expired = (entry: Entry) => now - entry.readAt >= this.trustMs;
		this.entries.dropOldestWhile(expired);
		const entry = this.entries.get(trigger);
		if (entry === undefined || !expired(entry)) return entry?.known;
		this.entries.delete(trigger);
		return undefined;
	}

	/**
	 * Checks the tokens a call carries (`givenTokens`) against `trigger`'s credential, reading it with `read`
	 * only as the header says. Rejects with a CredentialReadError when the read fails.
	 */
	async check(trigger: string, given: readonly unknown[], read: () => Promise<CredentialSecrets>): Promise<SecretCheck> {
		const cached = this.lookup(trigger);
		const known = cached ?? (await this.read(trigger, read));
		const first = decide(known, given);
		// The right token, no token at all, or a wrong one against a read made for this call: decided.
		if (first.check.ok || given.length === 0 || cached === undefined) return first;
		// A wrong token against the cache: the next read decides (the secret may have changed).
		return decide(await this.read(trigger, read), given);
	}

	/** One read for `trigger`, no sooner than rereadMs after the last, or the one under way or waiting, joined. */
	private async read(trigger: string, read: () => Promise<CredentialSecrets>): Promise<KnownSecret> {
		const pending = this.reading.get(trigger);
		if (pending !== undefined) return await pending;
		const reading = (async () => {
			const last = this.lastReads.get(trigger);
			const waitMs = last === undefined ? 0 : last + this.rereadMs - this.clock.now();
			if (waitMs > 0) await this.clock.sleep(waitMs);
			const readAt = this.clock.now();
			this.lastReads.set(trigger, readAt);
			// The cause may quote the credential: it stays out of what the callers get.
			const data = await read().catch(() => undefined);
			if (data === undefined) throw new CredentialReadError();
			const known = knownFrom(data);
			this.entries.set(trigger, { readAt, known });
			return known;
		})();
		const shared = reading.finally(() => {
			if (this.reading.get(trigger) === shared) this.reading.delete(trigger);
		});
		this.reading.set(trigger, shared);
		return await shared;
	}
}

/** The registry of this process. */
export const secretCache = new SecretCache();
