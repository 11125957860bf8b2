/** Callbacks and read-backs under THE completion rule (verdict/rules.ts): anything less is read back, never judged. */
import type { IDataObject } from 'n8n-workflow';

import { isCompleteResult } from '../verdict/rules';

/** The fields the rule judges: when a read completes a callback, the read's, never the callback's. */
export const VERDICT_FIELDS = ['isSafe', 'status', 'suggestedActions', 'riskScores', 'nsfwCategories'];

/** A read answer is a completion when it is not a 202 and its body is a complete result. */
export const isCompletion = (statusCode: number, body: unknown): boolean =>
	statusCode !== 202 && isCompleteResult(body);

/** The callback's fields beside the read result: the read's verdict fields only, never the callback's. */
export function completedWith(callback: IDataObject, read: IDataObject): IDataObject {
	const kept = Object.entries(callback).filter(([field]) => !VERDICT_FIELDS.includes(field));
	return { ...Object.fromEntries(kept), ...read };
}
