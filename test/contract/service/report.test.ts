/** The contract's verdicts, and its printed lines and JSON report with every secret masked by the package's redaction. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Check } from './answers';
import { judge, summarize, writeReport } from './report';

const check: Check = { id: 'x.line', assumption: 'something', run: async () => ({ answer: '' }) };
const dir = mkdtempSync(path.join(tmpdir(), 'cm-contract-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('held when the service answers in the mock words, differs otherwise, not checked with the reason', () => {
	expect(judge(check, { answer: 'HTTP 200' }, { answer: 'HTTP 200' }).verdict).toBe('held');
	expect(judge(check, { answer: 'HTTP 202' }, { answer: 'HTTP 200' }).verdict).toBe('differs');
	expect(judge(check, { notChecked: 'no queue' }, { answer: 'HTTP 200' })).toMatchObject({ verdict: 'not checked', reason: 'no queue' });
	expect(judge(check, { answer: 'HTTP 200' }, { notChecked: 'no id' })).toMatchObject({ verdict: 'not checked', reason: 'the mock could not answer: no id' });
});

test('a secret in an answer reaches neither the printed lines nor the JSON report, in any of its forms', () => {
	const secret = 'sk-live-9f2c4a7e1b';
	const line = judge(check, { answer: `echoed ${secret} and ${encodeURIComponent(`a ${secret}`)}` }, { answer: 'HTTP 200' });
	const file = path.join(dir, 'report.json');
	const printed = writeReport(summarize('https://api.contentmod.io', new Date(), [line]), file, [secret]);
	const written = readFileSync(file, 'utf8');
	expect(printed).toContain('DIFFERS');
	expect(printed + written).not.toContain('9f2c4a7e1b');
	expect(JSON.parse(written).lines[0].service).toBe('echoed *** and a%20***');
});

test('under GitHub Actions, a line not checked is a warning and a differing one an error on the summary page; secrets masked', () => {
	const secret = 'sk-live-9f2c4a7e1b';
	const lines = [
		judge(check, { answer: 'HTTP 200' }, { answer: 'HTTP 200' }),
		judge({ ...check, id: 'callback.body' }, { notChecked: 'no CONTRACT_CALLBACK_URL given' }, { answer: 'HTTP 200' }),
		judge({ ...check, id: 'image.deferred' }, { answer: `HTTP 202 ${secret}` }, { answer: 'HTTP 200' }),
	];
	const report = summarize('https://api.contentmod.io', new Date(), lines);
	const printed = writeReport(report, path.join(dir, 'gh.json'), [secret], true);
	expect(printed.split('\n').filter((line) => line.startsWith('::'))).toEqual([
		'::warning title=Contract callback.body::something; not checked: no CONTRACT_CALLBACK_URL given',
		'::error title=Contract image.deferred::something; the service answered: HTTP 202 ***',
	]);
	expect(writeReport(report, path.join(dir, 'plain.json'), [secret], false)).not.toMatch(/^::/m);
});
