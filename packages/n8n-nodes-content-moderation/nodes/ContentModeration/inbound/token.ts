/** The callback token: the service signs nothing and calls back only the URL it was given, so the secret rides in it. */
import { timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { secretDigest, type SecretDigest } from '../helpers/processState';

export const TOKEN_QUERY_PARAMETER = 'token';
export const TOKEN_HEADER = 'x-callback-token';

/** The URL with `token=<secret>` added (none when empty); the rest kept byte for byte. */
export function withCallbackSecret(url: string, secret: string): string {
	if (secret === '') return url;
	const hashAt = url.indexOf('#');
	const base = hashAt < 0 ? url : url.slice(0, hashAt);
	const fragment = hashAt < 0 ? '' : url.slice(hashAt);
	const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
	return `${base}${separator}${TOKEN_QUERY_PARAMETER}=${encodeURIComponent(secret)}${fragment}`;
}

/** Never copied into an output item: the secret itself and any credentials a caller sends along. */
const SECRET_HEADERS = new Set([TOKEN_HEADER, 'authorization', 'proxy-authorization', 'cookie']);
const REDACTED = '[redacted]';

export type TokenCheck = { ok: true } | { ok: false; message: string };
const MISSING_TOKEN = `Missing callback token: add ?${TOKEN_QUERY_PARAMETER}=<secret> to the URL or send an X-Callback-Token header`;

/** THE secret compare: fixed-length digests, so that the time taken tells nothing of the given value. */
export function sameSecret(given: string, expected: string | SecretDigest): boolean {
	return timingSafeEqual(secretDigest(given), typeof expected === 'string' ? secretDigest(expected) : expected);
}

/** What the call carries as a token (query parameter, header), as received: possibly arrays. */
export function givenTokens(query: IDataObject, headers: IDataObject): unknown[] {
	return [query[TOKEN_QUERY_PARAMETER], headers[TOKEN_HEADER]].filter((value) => value !== undefined && value !== '');
}

/** The given token values as strings, repeated parameters included: all must be redacted. */
export function givenTokenStrings(query: IDataObject, headers: IDataObject): string[] {
	return givenTokens(query, headers)
		.flat()
		.filter((value): value is string => typeof value === 'string');
}

/** Authenticity is this one function: if the service signs callbacks one day, the check goes here. */
export function checkGivenToken(accepts: (token: string) => boolean, given: readonly unknown[]): TokenCheck {
	if (given.length === 0) return { ok: false, message: MISSING_TOKEN };
	// Every given value is checked so the time taken does not tell which one matched. A repeated parameter
	// arrives as an array: present, but never a match.
	const matches = given.map((value) => typeof value === 'string' && accepts(value));
	return matches.includes(true) ? { ok: true } : { ok: false, message: 'Invalid callback token' };
}

/** `checkGivenToken` against secrets in hand (the credential's Callback Secret, as Callback > Receive reads it). */
export function checkToken(expected: readonly string[], query: IDataObject, headers: IDataObject): TokenCheck {
	return checkGivenToken(
		(value) => expected.map((secret) => sameSecret(value, secret)).includes(true),
		givenTokens(query, headers),
	);
}

/** The query with the token replaced; other secrets are masked with the whole item (trigger/webhook.ts). */
export function redactQuery(query: IDataObject): IDataObject {
	return TOKEN_QUERY_PARAMETER in query ? { ...query, [TOKEN_QUERY_PARAMETER]: REDACTED } : { ...query };
}

/** The headers with credentials replaced; a token a proxy copied into another header is masked with the item. */
export function redactHeaders(headers: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value]),
	);
}
