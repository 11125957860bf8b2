/** THE completion rule of a result, for every callback and read-back: anything less is read back, never judged. */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { finiteNumber } from '../helpers/numbers';

/** The fields the rule judges: when a read completes a callback, the read's, never the callback's. */
export const VERDICT_FIELDS = ['isSafe', 'status', 'suggestedActions', 'riskScores', 'nsfwCategories'];

const judged = (entry: unknown) =>
	isObject(entry) && typeof entry.category === 'string' && finiteNumber(entry.severity) !== undefined;

/** What `result` lacks to be complete (a short text naming no value it holds), or undefined when complete. */
export function incompleteness(result: unknown): string | undefined {
	if (!isObject(result)) return 'no result object';
	if (typeof result.isSafe !== 'boolean') return 'no boolean isSafe';
	if (result.status === 'processing' || result.status === 'pending') return 'its status says it is unfinished';
	const actions = result.suggestedActions;
	if (!isObject(actions) || typeof actions.reject !== 'boolean' || typeof actions.review !== 'boolean')
		return 'no suggestedActions.reject and .review';
	if (!isObject(result.riskScores) || finiteNumber(result.riskScores.overall) === undefined)
		return 'no riskScores.overall';
	const categories = result.nsfwCategories;
	if (!Array.isArray(categories) || !categories.every(judged)) return 'no nsfwCategories with category and severity';
	return undefined;
}

export const isCompleteResult = (result: unknown): boolean => incompleteness(result) === undefined;

/** A read answer is a completion when it is not a 202 and its body is a complete result. */
export const isCompletion = (statusCode: number, body: unknown): boolean =>
	statusCode !== 202 && isCompleteResult(body);

/** The callback's fields beside the read result: the read's verdict fields only, never the callback's. */
export function completedWith(callback: IDataObject, read: IDataObject): IDataObject {
	const kept = Object.entries(callback).filter(([field]) => !VERDICT_FIELDS.includes(field));
	return { ...Object.fromEntries(kept), ...read };
}
