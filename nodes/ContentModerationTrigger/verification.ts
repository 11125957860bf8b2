import { timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** Where a caller may put the shared secret: `?token=` or this header. */
const TOKEN_QUERY_PARAMETER = 'token';
const TOKEN_HEADER = 'x-callback-token';

/** Never copied into an output item: the secret itself and any credentials a caller sends along. */
const SECRET_HEADERS = new Set([TOKEN_HEADER, 'authorization', 'proxy-authorization', 'cookie']);
const REDACTED = '[redacted]';

export type TokenCheck = { ok: true } | { ok: false; message: string };

function sameSecret(given: string, expected: string): boolean {
	const a = Buffer.from(given, 'utf8');
	const b = Buffer.from(expected, 'utf8');
	// timingSafeEqual needs equal lengths; a different length is a mismatch anyway.
	return a.length === b.length && timingSafeEqual(a, b);
}

/** Accepts the call when the query parameter or the header carries the expected token. */
export function checkToken(expected: string, query: IDataObject, headers: IDataObject): TokenCheck {
	// A repeated parameter arrives as an array: present, but never a match.
	const given = [query[TOKEN_QUERY_PARAMETER], headers[TOKEN_HEADER]].filter(
		(value) => value !== undefined && value !== '',
	);
	if (given.length === 0) {
		return {
			ok: false,
			message: `Missing callback token: add ?${TOKEN_QUERY_PARAMETER}=<secret> to the URL or send an X-Callback-Token header`,
		};
	}
	// Check every candidate so the time taken does not tell which one was tried.
	const matches = given.map((value) => typeof value === 'string' && sameSecret(value, expected));
	return matches.includes(true) ? { ok: true } : { ok: false, message: 'Invalid callback token' };
}

export function redactQuery(query: IDataObject): IDataObject {
	const copy: IDataObject = { ...query };
	if (TOKEN_QUERY_PARAMETER in copy) copy[TOKEN_QUERY_PARAMETER] = REDACTED;
	return copy;
}

export function redactHeaders(headers: IDataObject): IDataObject {
	const copy: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		copy[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value;
	}
	return copy;
}
