/**
 * Properties of Route by Verdict over every result and rule set the node accepts: a result made riskier
 * never reaches Safe from Flagged or Review (the rules, and the output routeResults puts the item on), and a
 * threshold is refused exactly when it is not a number from 0 to 100 (bounds included), naming its field.
 */
import { fc, test } from '@fast-check/jest';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkThreshold, InputProblem } from '@package/nodes/ContentModeration/validation/checks';
import { VERDICT_OUTPUT } from '@package/nodes/ContentModeration/verdict/description';
import { readRules, routeResults, type RoutingPlan } from '@package/nodes/ContentModeration/verdict/outputs';
import { decideVerdict, type VerdictKind, type VerdictRules } from '@package/nodes/ContentModeration/verdict/rules';
import { contentModerationNode } from '@test/helpers/fixtures';

const CATEGORIES = ['violence_gore', 'alcohol', 'sexual_activity', 'gambling'];
/** How rules name a category: as the service writes it, or typed by hand (case, spaces). */
const RULE_CATEGORIES = [...CATEGORIES, ' Alcohol ', 'VIOLENCE_GORE', 'unknown_category'];

/** A number from 0 to 100, whole or with decimals (fc.double alone mostly gives values near 0). */
const percent = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100));
/** A score as the service sends it (sometimes re-serialised as text: see asText). */
const score = percent;
/** How much a score is raised: often nothing (one rule's change alone), a little, or far past the service's range. */
const rise = fc.oneof(
	{ weight: 3, arbitrary: fc.constant(0) },
	{ weight: 2, arbitrary: fc.integer({ min: 1, max: 150 }).map((n) => n / (n % 3 === 0 ? 2 : 1)) },
	{ weight: 1, arbitrary: fc.constantFrom(Number.EPSILON, 1e6, Number.MAX_SAFE_INTEGER) },
);
const threshold = percent;
/** Mostly what a clean result says, so that the thresholds decide. */
const mostlyFalse = fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

interface Scores {
	overall: number;
	severities: Array<{ category: string; severity: number }>;
}

const case_ = fc.record({
	isSafe: mostlyFalse.map((unsafe) => !unsafe),
	reject: mostlyFalse,
	review: fc.boolean(),
	asText: fc.boolean(),
	scores: fc.record({
		overall: score,
		severities: fc.array(fc.record({ category: fc.constantFrom(...CATEGORIES), severity: score }), { maxLength: 3 }),
	}),
	rises: fc.record({ overall: rise, severities: fc.array(rise, { minLength: 3, maxLength: 3 }) }),
	rules: fc.record({
		// Off half the time, so that the other rules alone decide often enough.
		riskThreshold: fc.option(threshold, { nil: undefined, freq: 2 }),
		categoryThresholds: fc.array(fc.record({ category: fc.constantFrom(...RULE_CATEGORIES), threshold }), {
			maxLength: 2,
		}),
		reviewOutput: fc.boolean(),
	}),
});

type Case = typeof case_ extends fc.Arbitrary<infer T> ? T : never;

function resultOf(c: Case, scores: Scores): IDataObject {
	const shown = (n: number) => (c.asText ? String(n) : n);
	return {
		isSafe: c.isSafe,
		riskScores: { overall: shown(scores.overall), spam: 1, toxicity: 1 },
		nsfwCategories: scores.severities.map(({ category, severity }) => ({ category, severity: shown(severity) })),
		suggestedActions: { reject: c.reject, review: c.review },
	};
}

function raised(c: Case): Scores {
	return {
		overall: c.scores.overall + c.rises.overall,
		severities: c.scores.severities.map((s, i) => ({ ...s, severity: s.severity + c.rises.severities[i] })),
	};
}

/** Flagged stays Flagged; Review becomes Review or Flagged; neither becomes Safe. */
function expectNoWayToSafe(before: VerdictKind, after: VerdictKind): void {
	if (before === 'flagged') expect(after).toBe('flagged');
	if (before === 'review') expect(['review', 'flagged']).toContain(after);
}

describe('raising a score or a severity', () => {
	/** The rule a reason names, without the score it read ("nsfwCategories alcohol severity # >= threshold 40"). */
	const ruleOf = (reason: string) => reason.replace(/(overall|severity) \S+ >=/, '$1 # >=');

	test.prop([case_])('never moves a result from Flagged or Review to Safe, nor drops a flag reason (decideVerdict)', (c) => {
		const rules: VerdictRules = c.rules;
		const before = decideVerdict(resultOf(c, c.scores), rules);
		const after = decideVerdict(resultOf(c, raised(c)), rules);
		expectNoWayToSafe(before.verdict, after.verdict);
		if (before.verdict === 'flagged') expect(after.reasons.map(ruleOf)).toEqual(expect.arrayContaining(before.reasons.map(ruleOf)));
	});

	/** The output index an item lands on, with its rules read into a plan as readRoutingPlan does. */
	function outputOf(c: Case, result: IDataObject, keepInput: boolean): number {
		const plan: RoutingPlan = {
			reviewOutput: c.rules.reviewOutput,
			order: { ...VERDICT_OUTPUT },
			rules: [c.rules],
			keepInput: [keepInput],
		};
		const inputs: INodeExecutionData[] = [{ json: { name: 'item' } }];
		const outputs = routeResults(
			{ node: contentModerationNode, facts: { analysisOf: (json) => json }, plan, inputs, continueOnFail: false },
			[{ json: result, pairedItem: { item: 0 } }],
		);
		const holding = outputs.flatMap((items, index) => items.map(() => index));
		expect(holding).toHaveLength(1);
		return holding[0];
	}

	const kindAt = (index: number): VerdictKind =>
		(Object.keys(VERDICT_OUTPUT) as VerdictKind[]).find((kind) => VERDICT_OUTPUT[kind] === index)!;

	test.prop([case_, fc.boolean()])('never moves an item from the Flagged or Review output to Safe (routeResults)', (c, keepInput) => {
		const before = kindAt(outputOf(c, resultOf(c, c.scores), keepInput));
		const after = kindAt(outputOf(c, resultOf(c, raised(c)), keepInput));
		expectNoWayToSafe(before, after);
	});
});

/** The rule the node's fields promise: a number from 0 to 100, or a text of one; nothing else. */
function inRange(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 100 ? n : undefined;
}

const inRangeNumber = fc.oneof(
	fc.constantFrom(0, 100, 1, 99.999, 50),
	fc.integer({ min: 0, max: 100 }),
	fc.double({ min: 0, max: 100, noNaN: true }),
);
const asTyped = (n: number) => fc.constantFrom(String(n), ` ${n} `, `${n}\n`);
const anyThreshold = fc.oneof(
	inRangeNumber,
	inRangeNumber.chain(asTyped),
	fc.double(),
	fc.double().map(String),
	fc.constantFrom(-0.0001, 100.0001, 101, -1, Infinity, -Infinity, NaN, '', ' ', '70%', '1e2', '0x10', 'Infinity'),
	fc.constantFrom(null, undefined, true, false, [70], { value: 70 }),
	fc.string(),
	fc.anything(),
);

describe('a threshold', () => {
	test.prop([inRangeNumber])('every number from 0 to 100 is accepted as it is, the bounds too', (n) => {
		expect(checkThreshold(n, 'Risk Score Threshold')).toBe(n);
	});

	test.prop([inRangeNumber.chain((n) => asTyped(n).map((text) => [n, text] as const))])(
		'a text of such a number is read as the number',
		([n, text]) => {
			expect(checkThreshold(text, 'Risk Score Threshold')).toBe(n);
		},
	);

	test.prop([anyThreshold])('anything else is refused, naming the field and how to fix it', (value) => {
		const checked = checkThreshold(value, 'Severity Threshold of the Category Threshold "alcohol"');
		const expected = inRange(value);
		if (expected !== undefined) {
			expect(checked).toBe(expected);
			return;
		}
		expect(checked).toBeInstanceOf(InputProblem);
		const problem = checked as InputProblem;
		expect(problem.message).toMatch(
			/^The Severity Threshold of the Category Threshold "alcohol" must be a number from 0 to 100, but it is /,
		);
		expect(problem.description).toMatch(/^Nothing was sent\. Enter a number such as 70/);
	});

	/** A node run's parameters: the risk threshold and one category row, as n8n gives them to readRules. */
	function context(risk: unknown, severity: unknown): IExecuteFunctions {
		const parameters: Record<string, unknown> = {
			riskThreshold: risk,
			'categoryThresholds.thresholds': [{ category: 'alcohol', threshold: severity }],
		};
		return {
			getNode: () => contentModerationNode,
			getNodeParameter: (name: string) => parameters[name],
		} as unknown as IExecuteFunctions;
	}

	test.prop([anyThreshold, anyThreshold, fc.nat(50)])(
		'read for an item: its rules, or a NodeOperationError for that item naming the threshold',
		(risk, severity, itemIndex) => {
			const read = () => readRules.call(context(risk, severity), itemIndex, false);
			const [riskThreshold, categoryThreshold] = [inRange(risk), inRange(severity)];
			if (riskThreshold !== undefined && categoryThreshold !== undefined) {
				expect(read()).toEqual({
					riskThreshold,
					categoryThresholds: [{ category: 'alcohol', threshold: categoryThreshold }],
					reviewOutput: false,
				});
				return;
			}
			let error: unknown;
			try {
				read();
			} catch (thrown) {
				error = thrown;
			}
			expect(error).toBeInstanceOf(NodeOperationError);
			const { message, description, context: errorContext } = error as NodeOperationError;
			const field = riskThreshold === undefined ? 'Risk Score Threshold' : 'Severity Threshold of the Category Threshold "alcohol"';
			expect(message).toContain(`The ${field} must be a number from 0 to 100`);
			expect(message).toMatch(new RegExp(`\\[item ${itemIndex}\\]$`));
			expect(description).toContain('Enter a number such as 70');
			expect(errorContext.itemIndex).toBe(itemIndex);
		},
	);
});
