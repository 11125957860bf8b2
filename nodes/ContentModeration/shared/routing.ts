import type { IDataObject, IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem } from './errors';
import { CUSTOM_CATEGORY, VERDICT_OUTPUT, VERDICT_ROUTABLE } from './routingDescription';
import type { CategoryThreshold, VerdictRules } from './verdict';
import { decideVerdict, hasAnalysis } from './verdict';

/** Whether "Route by Verdict" is on for this node (read once: it fixes the outputs, like Switch's mode). */
export function isVerdictRoutingOn(this: IExecuteFunctions, resource: string, operation: string): boolean {
	if (!VERDICT_ROUTABLE[resource]?.includes(operation)) return false;
	return this.getNodeParameter('routeByVerdict', 0, false) === true;
}

/**
 * Plain deferred mode answers with an id only, so there is nothing to route: refuse before submitting
 * anything, naming both parameters so the user knows which one to change.
 */
export function assertVerdictRoutable(
	this: IExecuteFunctions,
	resource: string,
	operation: string,
	itemIndex: number,
): void {
	if (resource !== 'image' || operation !== 'moderate') return;
	if (!isVerdictRoutingOn.call(this, resource, operation)) return;
	if (this.getNodeParameter('mode', itemIndex, 'immediate') !== 'deferred') return;
	throw new NodeOperationError(
		this.getNode(),
		'Route by Verdict needs a moderation result, but Mode "Deferred" only returns the request id',
		{
			itemIndex,
			description:
				'Set Mode to "Immediate" or "Deferred and Wait", or turn off Route by Verdict and route the results later (for example from the Content Moderation Trigger).',
		},
	);
}

function categoryThresholds(this: IExecuteFunctions, itemIndex: number): CategoryThreshold[] {
	const rows = this.getNodeParameter('categoryThresholds.thresholds', itemIndex, []) as IDataObject[];
	return rows.map((row) => ({
		category: String((row.category === CUSTOM_CATEGORY ? row.customCategory : row.category) ?? ''),
		threshold: Number(row.threshold),
	}));
}

function verdictRules(this: IExecuteFunctions, itemIndex: number, reviewOutput: boolean): VerdictRules {
	return {
		riskThreshold: Number(this.getNodeParameter('riskThreshold', itemIndex, 0)),
		categoryThresholds: categoryThresholds.call(this, itemIndex),
		reviewOutput,
	};
}

function firstPairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	if (typeof paired === 'number') return paired;
	return (paired as IPairedItemData | undefined)?.item;
}

/** n8n's own test for an error item (see WorkflowExecute.handleNodeErrorOutput). */
function isErrorItem(item: INodeExecutionData): boolean {
	if (item.error !== undefined) return true;
	const keys = Object.keys(item.json);
	return item.json.error !== undefined && keys.every((key) => ['error', 'message', 'details'].includes(key));
}

/** The analysis inside a node result: a queue item carries it under `moderation`. */
function analysisOf(resource: string, result: IDataObject): IDataObject | undefined {
	const analysis = resource === 'queue' ? result.moderation : result;
	return analysis !== null && typeof analysis === 'object' && !Array.isArray(analysis)
		? (analysis as IDataObject)
		: undefined;
}

function noAnalysisError(this: IExecuteFunctions, resource: string, result: IDataObject, itemIndex: number) {
	if (resource === 'queue') {
		const status = typeof result.status === 'string' ? ` (status "${result.status}")` : '';
		return new NodeOperationError(
			this.getNode(),
			`Queue item "${String(result.id ?? '')}" has no moderation yet${status}, so Route by Verdict cannot decide a verdict`,
			{
				itemIndex,
				description: 'Read the item again once it is processed, or turn off Route by Verdict.',
			},
		);
	}
	return new NodeOperationError(
		this.getNode(),
		'The result has no analysis (no isSafe), so Route by Verdict cannot decide a verdict',
		{
			itemIndex,
			description:
				'Route by Verdict needs a full moderation result. Turn it off to pass such results through unchanged.',
		},
	);
}

/**
 * Sends each result item to Safe, Flagged or Review. `results` are the items the operation produced,
 * each paired with its input item. Error items (continueOnFail) go to Flagged: content that could not be
 * judged must not reach the Safe branch (n8n's Guardrails node sends them to its Fail output the same way).
 * Under "Continue (using error output)" n8n moves them from there to its own Error output.
 */
export function routeByVerdict(
	this: IExecuteFunctions,
	resource: string,
	operation: string,
	results: INodeExecutionData[],
): INodeExecutionData[][] {
	const reviewOutput = this.getNodeParameter('reviewOutput', 0, false) === true;
	const outputs: INodeExecutionData[][] = reviewOutput ? [[], [], []] : [[], []];
	const inputs = this.getInputData();

	for (const item of results) {
		const itemIndex = firstPairedIndex(item) ?? 0;
		const pairedItem = item.pairedItem ?? { item: itemIndex };
		const analysis = analysisOf(resource, item.json);

		if (analysis === undefined || !hasAnalysis(analysis)) {
			if (isErrorItem(item)) {
				outputs[VERDICT_OUTPUT.flagged].push(item);
				continue;
			}
			const error = noAnalysisError.call(this, resource, item.json, itemIndex);
			if (!this.continueOnFail()) throw error;
			outputs[VERDICT_OUTPUT.flagged].push(errorItem(error, itemIndex));
			continue;
		}

		const { verdict, reasons } = decideVerdict(analysis, verdictRules.call(this, itemIndex, reviewOutput));
		// `verdict` sits at the top of the item in both shapes, so `{{ $json.verdict }}` always works.
		const decision = { verdict, verdictReasons: reasons };
		const input = inputs[itemIndex];
		const keepInput = this.getNodeParameter('keepInput', itemIndex, true) === true;

		outputs[VERDICT_OUTPUT[verdict]].push(
			keepInput && input
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
