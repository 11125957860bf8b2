/** Warnings where users go wrong, shown under the node's output as n8n's own nodes show theirs (execution hints). */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { ApiClient } from '../transport/client';
import type { VerdictRules } from '../verdict/rules';

/** Loopback, private, CGNAT (Tailscale) and link-local IPv4 (127/8, 10/8, 172.16/12, 192.168/16, 100.64/10, 169.254/16, 0/8). */
const LOCAL_IPV4 = /^(0|10|127|169\.254|192\.168|172\.(1[6-9]|2\d|3[01])|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\./;

/** An IPv4-mapped IPv6 word as IPv4 bytes: URL writes [::ffff:127.0.0.1] as [::ffff:7f00:1]. */
const bytes = (word: string) => `${parseInt(word, 16) >> 8}.${parseInt(word, 16) & 255}.`;

/** A single-label name (localhost, docker's n8n), a private suffix, a loopback, private or link-local address (fc00::/7, fe80::/10 too). */
export function isLocalHost(hostname: string): boolean {
	const bare = hostname.toLowerCase().replace(/^\[|\]$|\.$/g, '');
	const host = bare.replace(/^::ffff:(\w+):(\w+)$/, (_, hi: string, lo: string) => bytes(hi) + bytes(lo));
	if (!/[.:]/.test(host) || /\.(localhost|local|internal|lan|home\.arpa)$/.test(host)) return true;
	if (/^[\d.]+$/.test(host)) return LOCAL_IPV4.test(host);
	return host.includes(':') && (host === '::1' || /^(f[cd]|fe[89ab])/.test(host));
}

/** A callback address the service cannot call while it is itself outside (a local service, the mock, can). */
export async function unreachableCallback(what: string, url: string, client: ApiClient): Promise<string | undefined> {
	const callbackHost = new URL(url).hostname;
	const baseUrl = await client.baseUrl();
	if (!isLocalHost(callbackHost) || baseUrl === undefined || isLocalHost(new URL(baseUrl).hostname)) return undefined;
	return `${what} points at ${callbackHost}, which the service at ${new URL(baseUrl).host} cannot reach: its callbacks will never arrive. Set n8n's WEBHOOK_URL to the public address of this n8n (n8n builds its webhook and resume URLs on it) and restart n8n.`;
}

export function refusalsHint({ resent, limit }: ReturnType<ApiClient['load']>): string | undefined {
	if (resent === 0) return undefined;
	const requests = resent === 1 ? '1 request was' : `${resent} requests were`;
	return `${requests} refused by the service (429 or 503) and sent again; the node settled at ${limit} at a time. Lower Max Concurrency (or set Fixed Concurrency) if your plan allows fewer.`;
}

export function thresholdsHint({ riskThreshold = 0, categoryThresholds = [] }: VerdictRules): string | undefined {
	if (riskThreshold > 0 || categoryThresholds.some((rule) => rule.threshold > 0)) return undefined;
	return "Route by Verdict has no threshold set: only the service's isSafe and suggestedActions.reject decide what is Flagged. Set Risk Score Threshold (e.g. 70) to flag high riskScores.overall too.";
}

export function addHints(ctx: IExecuteFunctions, hints: Iterable<string | undefined>): string[] {
	const messages = [...new Set(hints)].filter((message): message is string => message !== undefined);
	ctx.addExecutionHints(
		...messages.map((message) => ({ message, type: 'warning' as const, location: 'outputPane' as const })),
	);
	return messages;
}
