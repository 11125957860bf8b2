/** The contract's verdict per line, its printed lines and its JSON report, every secret masked. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { redactionFor } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/redaction/redact';
import type { Check, Outcome } from './answers';

export type Verdict = 'held' | 'differs' | 'not checked';

export interface Line {
	id: string;
	assumption: string;
	verdict: Verdict;
	service: string;
	mock: string;
	/** Why a line was not checked */
	reason?: string;
}

const words = (outcome: Outcome): string => ('answer' in outcome ? outcome.answer : `not checked: ${outcome.notChecked}`);

/** A line held when the service answered in the mock's words, and differs when it answered otherwise. */
export function judge(check: Check, service: Outcome, mock: Outcome): Line {
	const line = { id: check.id, assumption: check.assumption, service: words(service), mock: words(mock) };
	if ('notChecked' in service) return { ...line, verdict: 'not checked', reason: service.notChecked };
	if ('notChecked' in mock) return { ...line, verdict: 'not checked', reason: `the mock could not answer: ${mock.notChecked}` };
	return { ...line, verdict: service.answer === mock.answer ? 'held' : 'differs' };
}

export interface Report {
	service: string;
	startedAt: string;
	seconds: number;
	lines: Line[];
	held: number;
	differs: number;
	notChecked: number;
}

export function summarize(service: string, startedAt: Date, lines: Line[]): Report {
	const count = (verdict: Verdict) => lines.filter((line) => line.verdict === verdict).length;
	return {
		service,
		startedAt: startedAt.toISOString(),
		seconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
		lines,
		held: count('held'),
		differs: count('differs'),
		notChecked: count('not checked'),
	};
}

/** The report as printed: one line per assumption, the service's answer beside the mock's. */
export function printable(report: Report): string {
	const width = Math.max(...report.lines.map((line) => line.id.length));
	const rows = report.lines.map((line) => {
		const verdict = line.verdict === 'differs' ? 'DIFFERS' : line.verdict;
		const beside = line.verdict === 'not checked' ? line.reason : `service: ${line.service}  |  mock: ${line.mock}`;
		return `${verdict.padEnd(11)} ${line.id.padEnd(width)}  ${beside}`;
	});
	const differing = report.lines.filter((line) => line.verdict === 'differs');
	const explain = differing.map((line) => `  ${line.id}: the package assumes: ${line.assumption}`);
	return [
		`Contract of n8n-nodes-content-moderation with ${report.service}, beside the project's mock`,
		...rows,
		`${report.held} held, ${report.differs} differ, ${report.notChecked} not checked (${report.seconds} s)`,
		...(differing.length > 0 ? ['Where the service differs from the mock:', ...explain] : []),
	].join('\n');
}

/**
 * GitHub Actions annotations: a line not checked is a warning on the release's summary page (a release run has no
 * callback URL, so the callback lines stay unchecked there), a differing line an error.
 */
export function annotations(report: Report): string[] {
	return report.lines.flatMap((line) => {
		if (line.verdict === 'held') return [];
		const level = line.verdict === 'differs' ? 'error' : 'warning';
		const why = line.verdict === 'differs' ? `the service answered: ${line.service}` : `not checked: ${line.reason}`;
		return [`::${level} title=Contract ${line.id}::${line.assumption}; ${why}`.replace(/\r?\n/g, ' ')];
	});
}

/** Masks the secrets in the report and writes it; returns what to print (with annotations under GitHub Actions). */
export function writeReport(report: Report, file: string, secrets: string[], github = process.env.GITHUB_ACTIONS === 'true'): string {
	const redaction = redactionFor(secrets);
	const masked = redaction.value(report);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(masked, null, 2)}\n`);
	const notes = github ? annotations(masked).map((line) => `\n${line}`).join('') : '';
	return `${redaction.text(printable(masked))}\nReport: ${file}${notes}`;
}
