/**
 * docs/testing.md's behaviour table and the e2e suites (test/e2e/suites.ts) say the same: the cases in bold in
 * a suite's column are exactly the cases that suite runs, and every e2e case is in some column, so a case that
 * leaves a suite leaves the table's column with it, next to where its behaviour is proven instead.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { cases } from '../e2e/cases';
import { queueCases } from '../e2e/queue/caseList';
import { SUITES, type SuiteName } from '../e2e/suites';

const TABLE_HEADING = '## Where each behaviour is proven';
const COLUMNS: Record<string, SuiteName> = { 'e2e n8n 2.41.1': 'n8n 2.x', 'e2e n8n 1.123.81': 'n8n 1.x', 'e2e queue mode': 'queue mode' };

/** The table's rows as cells, from the first table after the heading. */
function table(): { header: string[]; rows: string[][] } {
	const text = readFileSync(join(__dirname, '..', '..', 'docs', 'testing.md'), 'utf8');
	const section = text.split(TABLE_HEADING)[1];
	if (section === undefined) throw new Error(`docs/testing.md has no "${TABLE_HEADING}"`);
	const lines = section.split('\n').filter((line) => line.startsWith('|'));
	const cells = (line: string) => line.slice(1, -1).split('|').map((cell) => cell.trim());
	const [header, , ...rows] = lines.map(cells);
	return { header, rows };
}

/** Case ids written in bold (**16**) in a cell: the cases the column's suite runs for that row. */
function boldIds(cell: string): number[] {
	return [...cell.matchAll(/\*\*(\d+)\b[^*]*\*\*/g)].map((m) => Number(m[1]));
}

describe('docs/testing.md: where each behaviour is proven', () => {
	const { header, rows } = table();

	it('has a column per suite', () => {
		expect(header.filter((h) => h in COLUMNS)).toEqual(Object.keys(COLUMNS));
		expect(rows.length).toBeGreaterThan(20);
	});

	it.each(Object.entries(COLUMNS))('column "%s" names exactly the cases its suite runs', (column, suite) => {
		const index = header.indexOf(column);
		const inTable = new Set(rows.flatMap((row) => boldIds(row[index] ?? '')));
		const inSuite = new Set(SUITES[suite].flatMap((phase) => phase.cases));
		expect([...inTable].sort((a, b) => a - b)).toEqual([...inSuite].sort((a, b) => a - b));
	});

	it('places every e2e case in some suite', () => {
		const placed = new Set(Object.values(SUITES).flatMap((phases) => phases.flatMap((phase) => phase.cases)));
		expect([...cases, ...queueCases].map((c) => c.id).filter((id) => !placed.has(id))).toEqual([]);
	});
});
