/** Route by Verdict at run time; each routable operation describes its results with `VerdictFacts`. */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem, operationError } from '../helpers/errorItems';
import { checkThreshold, InputProblem, textOf } from '../validation/checks';
import { ensure } from '../validation/parameters';
import { CUSTOM_CATEGORY, VERDICT_OUTPUT } from './description';
import type { CategoryThreshold, Standing, VerdictKind, VerdictRules } from './rules';
import { decideVerdict, incompleteness, withStanding } from './rules';

export interface VerdictFacts {
	/** The analysis inside a result (a queue item carries it under `moderation`); undefined when none yet. */
	analysisOf(result: IDataObject): IDataObject | undefined;
	/** Why this item cannot be routed, checked before anything is sent. */
	refusal?(this: IExecuteFunctions, itemIndex: number): NodeOperationError | undefined;
	/** The error for a result without an analysis; absent: a generic one. */
	missingAnalysis?(node: INode, result: IDataObject, itemIndex: number): NodeOperationError | undefined;
	/** What the result's own standing adds to the rules (rules.ts `withStanding`); absent: nothing. */
	standingOf?(result: IDataObject): Standing | undefined;
}

/** Whether "Route by Verdict" is on (read once: it fixes the outputs, like Switch's mode). */
export function isVerdictRoutingOn(this: IExecuteFunctions, facts: VerdictFacts | undefined): boolean {
	return facts !== undefined && this.getNodeParameter('routeByVerdict', 0, false) === true;
}

function categoryThresholds(this: IExecuteFunctions, itemIndex: number): CategoryThreshold[] {
	const rows = this.getNodeParameter('categoryThresholds.thresholds', itemIndex, []) as IDataObject[];
	const ensureForItem = <T>(result: T | InputProblem): T => ensure(this, itemIndex, result);
	return rows.map((row) => {
		const custom = row.category === CUSTOM_CATEGORY;
		const field = `${custom ? 'Custom Category' : 'Category'} of a Category Threshold`;
		const category = ensureForItem(
			textOf(custom ? row.customCategory : row.category, field, '{{ $json.category }}'),
		).trim();
		const severity = `Severity Threshold of the Category Threshold "${category}"`;
		const threshold = ensureForItem(checkThreshold(row.threshold, severity));
		// A threshold without a category would be a rule silently off.
		if (category === '' && threshold > 0) {
			const fix =
				'Type the category name exactly as the service returns it (for example sexual_activity), or remove the row.';
			ensureForItem(new InputProblem(`The ${field} is empty`, fix));
		}
		return { category, threshold };
	});
}

/** Throws for a threshold that is not a number: the router reads the rules before the item's request. */
export function readRules(this: IExecuteFunctions, itemIndex: number, reviewOutput: boolean): VerdictRules {
	const risk = checkThreshold(this.getNodeParameter('riskThreshold', itemIndex, 0), 'Risk Score Threshold');
	const riskThreshold = ensure(this, itemIndex, risk);
	return { riskThreshold, categoryThresholds: categoryThresholds.call(this, itemIndex), reviewOutput };
}

/** The rules, or for an item whose rules cannot be read, rules that flag whatever comes (fail closed). */
function planRules(this: IExecuteFunctions, itemIndex: number, reviewOutput: boolean): VerdictRules {
	try {
		return readRules.call(this, itemIndex, reviewOutput);
	} catch (error) {
		return { reviewOutput, refused: (error as Error).message };
	}
}

export type OutputOrder = Record<VerdictKind, number>;

/** What routing reads from the parameters, per item: JSON, so that it can be kept in node context. */
export interface RoutingPlan {
	reviewOutput: boolean;
	order: OutputOrder;
	rules: VerdictRules[];
	keepInput: boolean[];
}

export function readRoutingPlan(this: IExecuteFunctions, order: OutputOrder = VERDICT_OUTPUT): RoutingPlan {
	const reviewOutput = this.getNodeParameter('reviewOutput', 0, false) === true;
	const indexes = this.getInputData().map((_, itemIndex) => itemIndex);
	return {
		reviewOutput,
		order: { safe: order.safe, flagged: order.flagged, review: order.review },
		rules: indexes.map((itemIndex) => planRules.call(this, itemIndex, reviewOutput)),
		keepInput: indexes.map((itemIndex) => this.getNodeParameter('keepInput', itemIndex, true) === true),
	};
}

/** The input item an output item is paired to (its first, when several). */
export function firstPairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	if (typeof paired === 'number') return paired;
	return (paired as IPairedItemData | undefined)?.item;
}

/** n8n 2.x's own test for an error item (WorkflowExecute.handleNodeErrorOutput; 1.x's is narrower). */
export function isErrorItem(item: INodeExecutionData): boolean {
	if (item.error !== undefined) return true;
	const keys = Object.keys(item.json);
	return item.json.error !== undefined && keys.every((key) => ['error', 'message', 'details'].includes(key));
}

function genericMissingAnalysis(node: INode, itemIndex: number, missing: string) {
	const message = `The result is not complete (${missing}), so Route by Verdict cannot decide a verdict`;
	const description =
		'Route by Verdict needs a finished, full moderation result: read it again once the service has finished, or turn Route by Verdict off to pass such results through unchanged.';
	return operationError(node, itemIndex, message, description);
}

/** What routing needs besides the results: from an execute() run or a callback's webhook(). */
export interface RoutingInputs {
	node: INode;
	facts: VerdictFacts;
	plan: RoutingPlan;
	inputs: INodeExecutionData[];
	continueOnFail: boolean;
}

/**
 * Error items go to Flagged: content that could not be judged must not reach Safe (as n8n's Guardrails
 * node does); under "Continue (using error output)" n8n 2.x moves them on to its Error output (1.x keeps them).
 */
export function routeResults(routing: RoutingInputs, results: INodeExecutionData[]): INodeExecutionData[][] {
	const { node, facts, plan, inputs, continueOnFail } = routing;
	const used = [plan.order.safe, plan.order.flagged, ...(plan.reviewOutput ? [plan.order.review] : [])];
	const outputs: INodeExecutionData[][] = Array.from({ length: Math.max(...used) + 1 }, () => []);

	for (const item of results) {
		const itemIndex = firstPairedIndex(item) ?? 0;
		const pairedItem = item.pairedItem ?? { item: itemIndex };
		const analysis = facts.analysisOf(item.json);
		const missing = analysis === undefined ? 'no analysis' : incompleteness(analysis);
		if (analysis === undefined || missing !== undefined) {
			if (isErrorItem(item)) {
				outputs[plan.order.flagged].push(item);
				continue;
			}
			const own = facts.missingAnalysis?.(node, item.json, itemIndex);
			const error = own ?? genericMissingAnalysis(node, itemIndex, missing ?? '');
			if (!continueOnFail) throw error;
			outputs[plan.order.flagged].push(errorItem(error, itemIndex));
			continue;
		}

		const rules = plan.rules[itemIndex] ?? { reviewOutput: plan.reviewOutput };
		const { verdict, reasons } = withStanding(
			decideVerdict(analysis, rules),
			facts.standingOf?.(item.json),
			rules.reviewOutput,
		);
		// `verdict` sits at the top of the item in both shapes, so `{{ $json.verdict }}` always works.
		const decision = { verdict, verdictReasons: reasons };
		const input = inputs[itemIndex];
		outputs[plan.order[verdict]].push(
			(plan.keepInput[itemIndex] ?? true) && input
				? {
						json: { ...input.json, moderation: item.json, ...decision },
						...(input.binary ? { binary: input.binary } : {}),
						pairedItem,
					}
				: { json: { ...item.json, ...decision }, pairedItem },
		);
	}

	return outputs;
}

export function routeByVerdict(
	this: IExecuteFunctions,
	facts: VerdictFacts,
	results: INodeExecutionData[],
): INodeExecutionData[][] {
	return routeResults(
		{
			node: this.getNode(),
			facts,
			plan: readRoutingPlan.call(this),
			inputs: this.getInputData(),
			continueOnFail: this.continueOnFail(),
		},
		results,
	);
}
