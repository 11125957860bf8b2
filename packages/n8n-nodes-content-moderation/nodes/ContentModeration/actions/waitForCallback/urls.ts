/**
 * One item's callback URL: the resume URL, `/callback`, the item index and a key only this execution can make
 * (n8n 1.x checks nothing on resume URLs; on 2.x the key binds a URL to one item).
 */
import { createHmac, randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { operationError } from '../../helpers/errorItems';
import { sameSecret } from '../../inbound/token';

import { STATE_KEY, type WaitState } from './state';

export const WEBHOOK_PATH = 'callback';
export const ITEM_PARAM = 'item';
export const KEY_PARAM = 'key';
/** The query parameter n8n 2.x puts on resume URLs (n8n-core WAITING_TOKEN_QUERY_PARAM) */
export const N8N_SIGNATURE_PARAM = 'signature';

export function itemKey(secret: string, itemIndex: number): string {
	return createHmac('sha256', secret).update(`item:${itemIndex}`).digest('hex');
}

/** Constant-time check of a callback's key for an item (the inbound callbacks' one compare). */
export function isItemKey(secret: string, itemIndex: number, key: unknown): boolean {
	return typeof key === 'string' && sameSecret(key, itemKey(secret, itemIndex));
}

/** This run's state in node context (saved with the execution), created with a fresh secret on first use. */
export function runState(ctx: IExecuteFunctions): WaitState {
	const context = ctx.getContext('node') as IDataObject;
	const existing = context[STATE_KEY] as WaitState | undefined;
	if (existing?.secret && Array.isArray(existing.items)) return existing;
	const state: WaitState = { secret: randomBytes(32).toString('hex'), items: [] };
	context[STATE_KEY] = state as unknown as (typeof context)[string];
	return state;
}

/** `$execution.resumeUrl` of this execution, as the Wait node reads it. */
export function resumeUrl(ctx: IExecuteFunctions): URL {
	const value = ctx.evaluateExpression('{{ $execution?.resumeUrl }}', 0);
	if (typeof value !== 'string' || !/^https?:\/\//.test(value)) {
		const description =
			'Wait for Callback needs an n8n that can pause executions (the Wait node\'s "On Webhook Call").';
		throw operationError(ctx.getNode(), undefined, 'n8n gave no resume URL for this execution', description);
	}
	return new URL(value);
}

/** Whether this n8n signs resume URLs with a per-execution token (n8n 2.x) */
export function hasResumeToken(url: URL): boolean {
	return url.searchParams.has(N8N_SIGNATURE_PARAM);
}

/** What a callback URL carries that opens the waiting execution (its item key, n8n's resume token): masked. */
export function resumeSecrets(url: string): string[] {
	const params = new URL(url).searchParams;
	return [params.get(KEY_PARAM), params.get(N8N_SIGNATURE_PARAM)].filter((value): value is string => !!value);
}

export function callbackUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = resumeUrl(ctx);
	url.pathname = `${url.pathname.replace(/\/$/, '')}/${WEBHOOK_PATH}`;
	url.searchParams.set(ITEM_PARAM, String(itemIndex));
	url.searchParams.set(KEY_PARAM, itemKey(runState(ctx).secret, itemIndex));
	return url.toString();
}

/** n8n 1.x (resume URLs without a token) passes on only a resumed node's first output: no Route by Verdict. */
export function waitCallbackRoutingRefusal(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError | undefined {
	if (hasResumeToken(resumeUrl(ctx))) return undefined;
	const description =
		'This n8n resumes a waiting node on its first output only, so the Safe and Review outputs would stay empty. Turn off Route by Verdict and route the results with an If or Switch node, or use Mode "Deferred and Wait".';
	const message = 'Route by Verdict with Mode "Wait for Callback" needs n8n 2.0 or newer';
	return operationError(ctx.getNode(), itemIndex, message, description);
}
