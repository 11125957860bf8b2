/**
 * THE completion rule of a moderation result, for the trigger, Callback > Receive and Wait for Callback,
 * applied to a callback's own body and to every read-back: complete only with a boolean `isSafe`, a status
 * that is not `processing`/`pending`, and every field Route by Verdict's rules read (verdict/rules.ts). What
 * is less is read back, and never delivered, remembered or judged as it came.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { finiteNumber } from '../helpers/numbers';

/** Statuses of a result the service is still working on (spec section 3; the vendor's queue items). */
const UNFINISHED_STATUSES: ReadonlySet<unknown> = new Set(['processing', 'pending']);

/** The fields the rule judges: a read-back's, never the callback's, when a read completes a callback. */
export const VERDICT_FIELDS = ['isSafe', 'status', 'suggestedActions', 'riskScores', 'nsfwCategories'];

/** Why `result` is not a complete result (a short text naming no value it holds), or undefined when it is. */
export function incompleteness(result: unknown): string | undefined {
	if (!isObject(result)) return 'no result object';
	if (typeof result.isSafe !== 'boolean') return 'no boolean isSafe';
	if (UNFINISHED_STATUSES.has(result.status)) return 'its status says it is unfinished';
	const actions = result.suggestedActions;
	if (!isObject(actions) || typeof actions.reject !== 'boolean' || typeof actions.review !== 'boolean')
		return 'no suggestedActions.reject and .review';
	if (!isObject(result.riskScores) || finiteNumber(result.riskScores.overall) === undefined)
		return 'no riskScores.overall';
	const categories = result.nsfwCategories;
	const judged = (item: unknown) =>
		isObject(item) && typeof item.category === 'string' && finiteNumber(item.severity) !== undefined;
	if (!Array.isArray(categories) || !categories.every(judged)) return 'no nsfwCategories with category and severity';
	return undefined;
}

export function isCompleteResult(result: unknown): boolean {
	return incompleteness(result) === undefined;
}

/** A read answer is a completion when it is not a 202 and its body is a complete result. */
export function isCompletion(statusCode: number, body: unknown): boolean {
	return statusCode !== 202 && isCompleteResult(body);
}

/** The callback's fields beside the read result: the read's verdict fields only, never the callback's. */
export function completedWith(callback: IDataObject, read: IDataObject): IDataObject {
	const kept = Object.fromEntries(Object.entries(callback).filter(([field]) => !VERDICT_FIELDS.includes(field)));
	return { ...kept, ...read };
}
