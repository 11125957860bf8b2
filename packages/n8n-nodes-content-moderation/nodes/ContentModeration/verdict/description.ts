import { NodeConnectionTypes, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';

import { NSFW_CATEGORIES } from './rules';

/** Output indexes when routing is on; error items (continueOnFail) go to Flagged (fail closed). */
export const VERDICT_OUTPUT = { safe: 0, flagged: 1, review: 2 } as const;

// Timed Out first: at the Wait Timeout n8n hands the inputs to the first output (handleWaitingState). A callback
// resume pairs by position (addPairedItemLineage), true only there: later outputs' `$('Node').item` is empty, not
// a wrong item, and Keep Input Data carries the input.
export const WAIT_CALLBACK_OUTPUT = { timedOut: 0, safe: 1, flagged: 2, review: 3 } as const;

export const WAIT_CALLBACK_MODE = 'waitCallback';

/** Value of the category dropdown that switches to the free-text field. */
export const CUSTOM_CATEGORY = '__custom';

// The outputs by parameters (n8n drops hidden ones: routeByVerdict is true only where it shows). A plain string,
// not a stringified function, so that transpilers and coverage tools cannot alter it.
export const verdictOutputs: `={{${string}}}` = `={{((parameters) => {
	if (parameters.routeByVerdict !== true && parameters.routeByDecision === true) return [{ type: "${NodeConnectionTypes.Main}", displayName: "Accepted" }, { type: "${NodeConnectionTypes.Main}", displayName: "Rejected" }, { type: "${NodeConnectionTypes.Main}", displayName: "Pending" }];
	if (parameters.routeByVerdict !== true) return [{ type: "${NodeConnectionTypes.Main}" }];
	const outputs = [{ type: "${NodeConnectionTypes.Main}", displayName: "Safe" }, { type: "${NodeConnectionTypes.Main}", displayName: "Flagged" }];
	if (parameters.mode === "${WAIT_CALLBACK_MODE}") outputs.unshift({ type: "${NodeConnectionTypes.Main}", displayName: "Timed Out" });
	if (parameters.reviewOutput === true) outputs.push({ type: "${NodeConnectionTypes.Main}", displayName: "Review" });
	return outputs;
})($parameter)}}`;

const titleCase = (category: string) => category.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

const categoryOptions: INodePropertyOptions[] = [
	...NSFW_CATEGORIES.map((category) => ({ name: titleCase(category), value: category })),
	{
		name: 'Other (Type a Name)',
		value: CUSTOM_CATEGORY,
		description: 'A category the service returns that is not in this list',
	},
].sort((a, b) => a.name.localeCompare(b.name));

const showWhenRouting = { routeByVerdict: [true] };

/** A routable operation adds these to its own properties. */
export const verdictProperties: INodeProperties[] = [
	{
		displayName: 'Route by Verdict',
		name: 'routeByVerdict',
		type: 'boolean',
		default: false,
		noDataExpression: true,
		description:
			'Whether to send each item to a Safe or Flagged output (and optionally Review) by the verdict rules, instead of one output',
	},
	{
		displayName: 'Review Output',
		name: 'reviewOutput',
		type: 'boolean',
		default: false,
		noDataExpression: true,
		displayOptions: { show: showWhenRouting },
		description:
			'Whether to add a third output, Review, for items the service suggests reviewing (suggestedActions.review) that no flag rule caught. When off, those items go to Safe.',
	},
	{
		displayName: 'Risk Score Threshold',
		name: 'riskThreshold',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, maxValue: 100 },
		displayOptions: { show: showWhenRouting },
		description: 'Flag items whose riskScores.overall is at or above this value (1-100). 0 turns this rule off.',
	},
	{
		displayName: 'Category Thresholds',
		name: 'categoryThresholds',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Category Threshold',
		displayOptions: { show: showWhenRouting },
		description: 'Flag items with an NSFW category whose severity is at or above the threshold set for that category',
		options: [
			{
				name: 'thresholds',
				displayName: 'Threshold',
				values: [
					{
						displayName: 'Category',
						name: 'category',
						type: 'options',
						options: categoryOptions,
						default: 'adult_content',
						description: 'The nsfwCategories category to check',
					},
					{
						displayName: 'Custom Category',
						name: 'customCategory',
						type: 'string',
						default: '',
						placeholder: 'e.g. sexual_activity',
						displayOptions: { show: { category: [CUSTOM_CATEGORY] } },
						description: 'Category name exactly as the service returns it (case is ignored)',
					},
					{
						displayName: 'Severity Threshold',
						name: 'threshold',
						type: 'number',
						default: 50,
						typeOptions: { minValue: 1, maxValue: 100 },
						description: 'Flag when the severity of this category is at or above this value (1-100)',
					},
				],
			},
		],
	},
	{
		displayName: 'Keep Input Data',
		name: 'keepInput',
		type: 'boolean',
		default: true,
		displayOptions: { show: showWhenRouting },
		description:
			'Whether each output item is the input item (its JSON and binary data) with the result under "moderation". When off, the item is the result alone.',
	},
];
