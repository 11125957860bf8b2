/** Request plumbing of the mock: the request as read, replies, path routing, and the JSON body rules. */
import type { IncomingHttpHeaders } from 'node:http';

import { MockApiError } from './errors';

export interface ParsedRequest {
	method: string;
	headers: IncomingHttpHeaders;
	raw: Buffer;
	tooLarge: boolean;
}

export interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Work the service does before answering, added to the latency */
	workMs?: number;
	/** Sent as text/plain instead of `body` as JSON (a proxy's page). */
	text?: string;
}

type Handler = (params: Record<string, string>, request: ParsedRequest) => Reply;

export interface Route {
	/** Path segments; `:name` captures a percent-decoded parameter */
	pattern: string[];
	methods: Record<string, Handler>;
}

export function splitTarget(target: string): { path: string; query: Record<string, string> } {
	const at = target.indexOf('?');
	if (at < 0) return { path: target, query: {} };
	return { path: target.slice(0, at), query: Object.fromEntries(new URLSearchParams(target.slice(at + 1))) };
}

/** Each body parsed once: the handler and the recorder read the same value (a 1.4 MB image took 10 ms a parse). */
const parsedBodies = new WeakMap<Buffer, unknown>();

function parseJson(raw: Buffer): unknown {
	if (!parsedBodies.has(raw)) parsedBodies.set(raw, JSON.parse(raw.toString('utf8')));
	return parsedBodies.get(raw);
}

/** The body as recorded: parsed JSON, else the text, else undefined when empty. */
export function parseBody(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	try {
		return parseJson(raw);
	} catch {
		return raw.toString('utf8');
	}
}

export function errorReply(error: MockApiError): Reply {
	return { status: error.status, body: error.toBody(), headers: error.headers };
}

/** The JSON body of a POST: 413 over the size limit, 415 unless JSON, 400 when empty or malformed. */
export function jsonBody(request: ParsedRequest, maxBodyBytes: number): unknown {
	if (request.tooLarge) {
		throw new MockApiError(413, 'payload_too_large', `The request body is larger than ${maxBodyBytes} bytes`);
	}
	const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
		throw new MockApiError(415, 'unsupported_media_type', 'The request body must be sent as Content-Type: application/json');
	}
	if (request.raw.length === 0) throw new MockApiError(400, 'invalid_json', 'The request body is empty; a JSON object is required');
	try {
		return parseJson(request.raw);
	} catch {
		throw new MockApiError(400, 'invalid_json', 'The request body is not valid JSON');
	}
}

/** Runs the handler of the route matching method and path; 404 (text) for no route, 405 for a wrong method. */
export function dispatch(routes: Route[], method: string, path: string, request: ParsedRequest): Reply {
	const segments = path.split('/').slice(1);
	for (const route of routes) {
		if (route.pattern.length !== segments.length || path[0] !== '/') continue;
		const params: Record<string, string> = {};
		const matched = route.pattern.every((part, i) => {
			if (!part.startsWith(':')) return part === segments[i];
			try {
				params[part.slice(1)] = decodeURIComponent(segments[i]);
			} catch {
				throw new MockApiError(400, 'invalid_path_parameter', `${part.slice(1)} is not valid percent-encoding`, part.slice(1));
			}
			return true;
		});
		if (!matched) continue;
		const handler = route.methods[method];
		if (!handler) {
			const allow = Object.keys(route.methods).join(', ');
			throw new MockApiError(405, 'method_not_allowed', `${method} is not allowed on this path (allowed: ${allow})`, undefined, {
				allow,
			});
		}
		return handler(params, request);
	}
	// As a web framework answers a path no handler serves: plain text, not the API's JSON error (a Base URL with a
	// wrong prefix, say /api/v1, gets this; the credential's Test tells it from an unknown id by that).
	return { status: 404, text: '404 Not Found' };
}
