/**
 * THE redaction of secrets: whatever may reach an error, an output item or a response goes through
 * `redactionFor`, every form of every secret masked.
 */
import { MAX_DEPTH, nestedDeeperThan } from '../helpers/json';
import { MASK, maskIn, secretPatterns, type Patterns } from './secretPatterns';

/** Nodes in an n8n error that are not ours to change: the workflow's node (its own parameters). */
const NOT_WALKED = new Set(['node']);

/** Adds the non-empty strings among `values` to `secrets`, once each. */
export function addSecrets(secrets: string[], ...values: unknown[]): void {
	for (const value of values) {
		if (typeof value === 'string' && value !== '' && !secrets.includes(value)) secrets.push(value);
	}
}

/** The redaction of one set of secrets, compiled once; the secrets stay in its closure (not shown by inspecting it). */
export interface Redaction {
	text(text: string): string;
	/**
	 * A copy of plain data with every string masked, keys included. Keys are defined, never assigned, so a
	 * key `__proto__` changes no prototype. What lies deeper than MAX_DEPTH is masked whole.
	 */
	value<T>(value: T): T;
	/** The error redacted in place: every own property (message and stack, symbol-keyed ones too) and the whole `cause` chain. */
	error<E>(error: E): E;
}

const NO_SECRETS: Redaction = { text: (text) => text, value: (value) => value, error: (error) => error };

export function redactionFor(secrets: readonly unknown[]): Redaction {
	const patterns = secretPatterns(secrets);
	if (patterns === undefined) return NO_SECRETS;
	return {
		text: (text) => maskIn(text, patterns),
		value: (value) => valueWith(value, patterns),
		error: (error) => errorWith(error, patterns),
	};
}

/** Redaction.text with `secrets` compiled for this one call; so are redactValue and redactError. */
export function redact(text: string, secrets: readonly unknown[]): string {
	return redactionFor(secrets).text(text);
}

export function redactValue<T>(value: T, secrets: readonly unknown[]): T {
	return redactionFor(secrets).value(value);
}

export function redactError<E>(error: E, secrets: readonly unknown[]): E {
	return redactionFor(secrets).error(error);
}

function valueWith<T>(value: T, patterns: Patterns): T {
	// Most values hold no secret: one test of their JSON text is far cheaper than a walk (every output item).
	let text: string | undefined;
	try {
		text = nestedDeeperThan(value, MAX_DEPTH) ? undefined : JSON.stringify(value);
	} catch {
		// cycles, BigInt: `text` stays undefined, walk
	}
	if (text !== undefined && !patterns.any.test(text)) return value;
	// `open` holds the objects being walked (a cycle); an object met twice elsewhere is copied twice.
	const open = new Set<object>();
	const walk = (current: unknown, depth: number): unknown => {
		if (typeof current === 'string') return maskIn(current, patterns);
		if (current === null || typeof current !== 'object' || Buffer.isBuffer(current)) return current;
		if (open.has(current) || depth >= MAX_DEPTH) return MASK;
		open.add(current);
		const copy = Array.isArray(current)
			? current.map((entry) => walk(entry, depth + 1))
			: Object.fromEntries(
					Object.entries(current).map(([key, entry]) => [maskIn(key, patterns), walk(entry, depth + 1)]),
				);
		open.delete(current);
		return copy;
	};
	return walk(value, 0) as T;
}

function errorWith<E>(error: E, patterns: Patterns): E {
	const seen = new Set<object>();
	const walk = (current: unknown, depth: number): unknown => {
		if (typeof current === 'string') return maskIn(current, patterns);
		if (current === null || typeof current !== 'object' || seen.has(current) || Buffer.isBuffer(current))
			return current;
		if (depth >= MAX_DEPTH) return MASK;
		seen.add(current);
		// Symbol keys too: Node's objects keep their state under them (a request's headers).
		for (const key of Reflect.ownKeys(current)) {
			if (typeof key === 'string' && NOT_WALKED.has(key)) continue;
			const descriptor = Object.getOwnPropertyDescriptor(current, key);
			// Getters are not called (they may do anything), except V8's `stack` accessor on errors.
			const readable = descriptor !== undefined && ('value' in descriptor || (key === 'stack' && descriptor.set));
			if (!readable) continue;
			const value = (current as Record<PropertyKey, unknown>)[key];
			const next = walk(value, depth + 1);
			if (next !== value) {
				try {
					(current as Record<PropertyKey, unknown>)[key] = next;
				} catch {
					// A frozen or read-only property cannot hold a secret we put there; leave it.
				}
			}
		}
		return current;
	};
	walk(error, 0);
	return error;
}
