/**
 * The secret cache: a credential read costs n8n a workflow and an expression isolate, so each trigger's is kept.
 * Reads are at least a second apart: a new secret works within a second, wrong tokens cost one read a second.
 */
import { processStore, secretDigest, type Stores } from '../helpers/processState';
import { redactionFor, type Redaction } from '../redaction/redact';
import { isStrongSecret } from './secretRule';
import { checkGivenToken, sameSecret, type TokenCheck } from './token';

/** What one credential read gives: the Callback Secret ('' when none) and every secret of the credential. */
export type CredentialSecrets = { callbackSecret: string; secrets: readonly string[] };

export interface TriggerCredential {
	/** A Callback Secret long enough to accept callbacks in production (inbound/secretRule.ts). */
	strong: boolean;
	/** The tokens a call carries against the Callback Secret (sameSecret); without one every call is accepted. */
	check(given: readonly unknown[]): TokenCheck;
	/** The redaction of the credential's secrets plus the tokens the call carried. */
	redaction(callerTokens: readonly string[]): Redaction;
}

export type SecretCheck = { credential: TriggerCredential; check: TokenCheck };

/** The secrets stay in these closures; the redaction of the credential's own is compiled once. */
function credentialFrom(read: CredentialSecrets): TriggerCredential {
	const digest = read.callbackSecret === '' ? undefined : secretDigest(read.callbackSecret);
	const secrets = [...read.secrets, read.callbackSecret]; // an empty one masks nothing (redactionFor)
	let own: Redaction | undefined;
	return {
		strong: isStrongSecret(read.callbackSecret),
		check: (given) => (digest === undefined ? { ok: true } : checkGivenToken((t) => sameSecret(t, digest), given)),
		redaction: (callerTokens) => {
			if (callerTokens.every((value) => value === '' || secrets.includes(value)))
				return (own ??= redactionFor(secrets));
			return redactionFor([...secrets, ...callerTokens]);
		},
	};
}

export class CredentialReadError extends Error {
	constructor() {
		super('The Content Moderation API credential could not be read');
	}
}

export class SecretCache {
	private readonly credentials;
	/** When each trigger's last read started, whatever it gave: the next waits until this entry expires. */
	private readonly lastReads;
	private readonly reading;

	constructor(stores: Stores = processStore) {
		this.credentials = stores<TriggerCredential>('triggerCredentials');
		this.lastReads = stores<number>('credentialReads');
		this.reading = stores<Promise<TriggerCredential>>('credentialReadsUnderWay');
	}

	get size(): number {
		return this.credentials.size;
	}

	/** Checks the tokens a call carries (`given`) against `trigger`'s credential; a failed read rejects. */
	async check(
		trigger: string,
		given: readonly unknown[],
		read: () => Promise<CredentialSecrets>,
	): Promise<SecretCheck> {
		const cached = this.credentials.get(trigger);
		const credential = cached ?? (await this.read(trigger, read));
		const check = credential.check(given);
		// The right token, no token at all, or a wrong one against a read made for this call: decided.
		if (check.ok || given.length === 0 || cached === undefined) return { credential, check };
		// A wrong token against the cache: the next read decides (the secret may have changed).
		const reread = await this.read(trigger, read);
		return { credential: reread, check: reread.check(given) };
	}

	/** One read for `trigger`, no sooner than a reread interval after the last, or the one under way, joined. */
	private async read(trigger: string, read: () => Promise<CredentialSecrets>): Promise<TriggerCredential> {
		const pending = this.reading.get(trigger);
		if (pending !== undefined) return await pending;
		const { clock, bounds } = this.lastReads;
		const reading = (async () => {
			const last = this.lastReads.get(trigger);
			if (last !== undefined) await clock.sleep(last + bounds.ttlMs - clock.now());
			const readAt = clock.now();
			this.lastReads.set(trigger, readAt);
			// The cause may quote the credential: it stays out of what the callers get.
			const data = await read().catch(() => undefined);
			if (data === undefined) throw new CredentialReadError();
			const credential = credentialFrom(data);
			this.credentials.set(trigger, credential, readAt + this.credentials.bounds.ttlMs);
			return credential;
		})();
		const shared = reading.finally(() => {
			if (this.reading.get(trigger) === shared) this.reading.delete(trigger);
		});
		this.reading.set(trigger, shared);
		return await shared;
	}
}

export const secretCache = new SecretCache();
