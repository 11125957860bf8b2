/** Verdict rules (pure): which results are flagged, which need review, which are safe. */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { finiteNumber } from '../helpers/numbers';

/** Category values the spec lists for image moderation (section 2.1); results may carry others too. */
export const NSFW_CATEGORIES = [
	'adult_content',
	'suggestive_imagery',
	'strong_language',
	'violence_gore',
	'horror_disturbing',
	'alcohol',
	'tobacco',
	'substance_use',
	'gambling',
	'dating_relationship',
	'medical_procedures',
	'crude_humor',
	'political_content',
] as const;

export interface CategoryThreshold {
	category: string;
	threshold: number;
}

export interface VerdictRules {
	/** 1-100; 0 or undefined: off */
	riskThreshold?: number;
	categoryThresholds?: CategoryThreshold[];
	reviewOutput?: boolean;
	/** Why the item's rules could not be read: every result is flagged with this reason (fail closed). */
	refused?: string;
}

export type VerdictKind = 'safe' | 'flagged' | 'review';

export interface Verdict {
	verdict: VerdictKind;
	reasons: string[];
}

function activeThreshold(value: unknown): number | undefined {
	const threshold = finiteNumber(value);
	return threshold !== undefined && threshold > 0 ? threshold : undefined;
}

// Trimmed and case-insensitive, so that "Adult_Content" typed by hand still matches.
function sameCategory(a: string, b: string): boolean {
	return a.trim().toLowerCase() === b.trim().toLowerCase();
}

const judged = (entry: unknown) =>
	isObject(entry) && typeof entry.category === 'string' && finiteNumber(entry.severity) !== undefined;

/** THE completion rule (routing, callbacks, read-backs): what `result` lacks (naming no value it holds), or undefined. */
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

/** Every flag rule the result meets (none: not flagged); equal to a threshold counts as reached. */
export function flaggedReasons(result: IDataObject, rules: VerdictRules = {}): string[] {
	const reasons: string[] = [];
	if (!isObject(result)) return reasons;

	if (rules.refused !== undefined) reasons.push(rules.refused);
	if (result.isSafe === false) reasons.push('isSafe is false');

	const actions = isObject(result.suggestedActions) ? result.suggestedActions : {};
	if (actions.reject === true) reasons.push('suggestedActions.reject is true');

	const riskThreshold = activeThreshold(rules.riskThreshold);
	if (riskThreshold !== undefined && isObject(result.riskScores)) {
		const overall = finiteNumber(result.riskScores.overall);
		if (overall !== undefined && overall >= riskThreshold) {
			reasons.push(`riskScores.overall ${overall} >= threshold ${riskThreshold}`);
		}
	}

	const categories = Array.isArray(result.nsfwCategories) ? result.nsfwCategories : [];
	for (const rule of rules.categoryThresholds ?? []) {
		const threshold = activeThreshold(rule?.threshold);
		if (threshold === undefined || typeof rule.category !== 'string' || rule.category.trim() === '') continue;
		for (const item of categories) {
			if (!isObject(item) || typeof item.category !== 'string') continue;
			if (!sameCategory(item.category, rule.category)) continue;
			const severity = finiteNumber(item.severity);
			if (severity !== undefined && severity >= threshold) {
				reasons.push(`nsfwCategories ${item.category} severity ${severity} >= threshold ${threshold}`);
			}
		}
	}

	return reasons;
}

export function needsReview(result: IDataObject): boolean {
	return isObject(result) && isObject(result.suggestedActions) && result.suggestedActions.review === true;
}

/** Flagged beats review, review (only when its output is on) beats safe. */
export function decideVerdict(result: IDataObject, rules: VerdictRules): Verdict {
	const flagged = flaggedReasons(result, rules);
	if (flagged.length > 0) return { verdict: 'flagged', reasons: flagged };

	if (!needsReview(result)) return { verdict: 'safe', reasons: ['no flag rule matched'] };
	if (rules.reviewOutput === true) return { verdict: 'review', reasons: ['suggestedActions.review is true'] };
	return {
		verdict: 'safe',
		reasons: ['no flag rule matched (suggestedActions.review is true, but the Review output is off)'],
	};
}

/**
 * What a result's own standing adds to the rules (a queue item: a person's rejection, or a person still to
 * decide): a flag wins over any verdict; a review only over Safe, on Review when that output is on.
 */
export interface Standing {
	flag?: string;
	review?: string;
}

export function withStanding(
	decided: Verdict,
	standing: Standing | undefined,
	reviewOutput: boolean | undefined,
): Verdict {
	if (standing?.flag !== undefined) {
		return {
			verdict: 'flagged',
			reasons: decided.verdict === 'flagged' ? [standing.flag, ...decided.reasons] : [standing.flag],
		};
	}
	if (standing?.review === undefined || decided.verdict !== 'safe') return decided;
	if (reviewOutput === true) return { verdict: 'review', reasons: [standing.review] };
	return { verdict: 'safe', reasons: [...decided.reasons, `${standing.review}, but the Review output is off`] };
}
