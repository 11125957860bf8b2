/**
 * Thresholds given by expressions, through n8n-core's engine: numbers and numeric texts are read, anything
 * else fails the item before its request, naming the threshold; such an item never reaches Safe.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { pairedIndex } from '@test/helpers/fixtures';
import { FLAGGED, imageUrl, moderate, NODE, SAFE, useRoutingMock } from '@test/helpers/routing';

const routing = useRoutingMock();
const RISKY = imageUrl('risky', { risk: 95, categories: { violence_gore: 80 } });

async function run(parameters: INodeParameters, threshold: IDataObject[string], onError?: 'continueErrorOutput' | 'continueRegularOutput') {
	return await runWorkflow({
		nodes: [moderationNode(moderate(parameters), onError ? { onError } : {})],
		credentials: routing.credentials(),
		items: [{ json: { url: RISKY, threshold } }],
	});
}

const risk = { riskThreshold: '={{ $json.threshold }}' };
const category = { categoryThresholds: { thresholds: [{ category: 'violence_gore', threshold: '={{ $json.threshold }}' }] } };

describe('a threshold from an expression', () => {
	it.each([70, '70', ' 70 '])('reads %p as 70: overall risk 95 is Flagged', async (threshold) => {
		const outputs = (await run(risk, threshold)).outputsOf(NODE);
		expect(outputs[SAFE]).toEqual([]);
		expect(outputs[FLAGGED][0].json.verdictReasons).toEqual(['riskScores.overall 95 >= threshold 70']);
	});

	it.each([100, '100'])('accepts %p, the top of the range: overall risk 100 is Flagged, 99 Safe', async (threshold) => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate(risk))],
			credentials: routing.credentials(),
			items: [
				{ json: { url: imageUrl('top', { risk: 100 }), threshold } },
				{ json: { url: imageUrl('below-top', { risk: 99 }), threshold } },
			],
		});
		expect(run.error).toBeUndefined();
		const outputs = run.outputsOf(NODE);
		expect(outputs[FLAGGED].map((item) => [pairedIndex(item), item.json.verdictReasons])).toEqual([
			[0, ['riskScores.overall 100 >= threshold 100']],
		]);
		expect(outputs[SAFE].map(pairedIndex)).toEqual([1]);
	});

	it.each([
		['Risk Score Threshold', risk],
		['Severity Threshold of the Category Threshold "violence_gore"', category],
	])('%s "70%" fails the item before its request (never Safe), paired on the Error output', async (name, parameters) => {
		const result = await run(parameters, '70%', 'continueErrorOutput');
		const [safe, flagged, errors] = result.outputsOf(NODE);
		expect([safe, flagged]).toEqual([[], []]);
		expect(errors.map(pairedIndex)).toEqual([0]);
		expect(errors[0].json.error).toBe(`The ${name} must be a number from 0 to 100, but it is "70%" [item 0]`);
		expect(routing.mock.requests).toEqual([]);
	});

	it.each([
		[{ value: 70 }, 'an object with keys value'],
		[[70], 'an array of 1 item'],
		[null, 'null'],
	])('refuses %p; under On Error: Continue the item goes to Flagged', async (threshold, words) => {
		const result = await run(risk, threshold, 'continueRegularOutput');
		const [safe, flagged] = result.outputsOf(NODE);
		expect(safe).toEqual([]);
		expect(String(flagged[0].json.error)).toContain(`but it is ${words}`);
		expect(routing.mock.requests).toEqual([]);
	});

	it('refuses an empty Custom Category that has a threshold (a rule silently off)', async () => {
		const result = await run({ categoryThresholds: { thresholds: [{ category: '__custom', customCategory: '={{ $json.threshold }}', threshold: 50 }] } }, '');
		expect(result.errorOf(NODE)?.message).toContain('The Custom Category of a Category Threshold is empty');
		expect(routing.mock.requests).toEqual([]);
	});
});
