/** Text > Moderate (moderate.operation.ts) on a fake context and client: its fields, Banned Words, the body it sends. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as moderate from '@package/nodes/ContentModeration/actions/text/moderate.operation';
import { InputProblem } from '@package/nodes/ContentModeration/validation/checks';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

const { parseBannedWords } = moderate;
const field = (name: string) => moderate.description.find((p) => p.name === name) as INodeProperties;
const option = (name: string) => (field('options').options as INodeProperties[]).find((o) => o.name === name);

describe('Text > Moderate, its fields', () => {
	it('Mode: Immediate by default, a fixed list of three', () => {
		expect(field('mode')).toMatchObject({ type: 'options', default: 'immediate', noDataExpression: true });
		const modes = field('mode').options as INodePropertyOptions[];
		expect(modes.map((m) => m.value)).toEqual(['immediate', 'deferred', 'waitCallback']);
		// Wait for Callback's help is built around what this operation submits.
		expect(modes[2].description).toMatch(/^\S.*text/);
		expect(moderate.option.value).toBe('moderate');
		expect(moderate.toolDescription).toContain('isSafe');
	});

	it('Options: Banned Words a multi-line text, Callback URL only in Deferred, Metadata (JSON) defaulting to {}', () => {
		expect(option('bannedWords')).toMatchObject({ type: 'string', default: '', typeOptions: { rows: 2 } });
		expect(option('callbackUrl')?.displayOptions).toEqual({ show: { '/mode': ['deferred'] } });
		expect(option('meta')).toMatchObject({ type: 'json', default: '{}' });
	});

	it('Route by Verdict in Mode Deferred is refused, naming what Deferred returns and the modes that give a verdict', () => {
		const refusal = moderate.verdict.refusal?.call(executeContext({ mode: 'deferred' }), 0);
		expect(refusal?.message).toMatch(/text moderation ID$/);
		expect(refusal?.description).toContain('"Immediate" or "Wait for Callback"');
	});
});

describe('parseBannedWords', () => {
	it.each([
		['nothing', undefined, undefined],
		['null', null, undefined],
		['an empty text', '', undefined],
		['only separators', ' ,\n', undefined],
		['words by commas, trimmed, each once', ' spoiler, leak ,,spoiler', ['spoiler', 'leak']],
		['a trailing comma', 'spoiler,', ['spoiler']],
		['one per line', 'a\r\nb\nc', ['a', 'b', 'c']],
		['a JSON list (a comma inside a word kept)', ' ["a", "b,c"]', ['a', 'b,c']],
		['a text starting with "[" that is no JSON list', '[draft], leak', ['[draft]', 'leak']],
		['a list from an expression, whole numbers as text', ['x', 42, ' y '], ['x', '42', 'y']],
	])('%s', (_case, value, words) => {
		expect(parseBannedWords(value)).toEqual(words);
	});

	it.each([
		['a number', 42],
		['an object', { a: 1 }],
		['a list holding an object', ['a', { a: 1 }]],
		['a list holding a fraction', [1.5]],
		['a list holding a boolean', [true]],
	])('%s is refused, naming the field', (_case, value) => {
		const problem = parseBannedWords(value);
		expect(problem).toBeInstanceOf(InputProblem);
		expect((problem as InputProblem).message).toContain('Banned Words');
		expect((problem as InputProblem).description).toMatch(/\S/);
	});
});

describe('Text > Moderate, the request', () => {
	const send = async (options?: object) => {
		const { run, sent } = fakeRun(() => ({ isSafe: true }));
		const result = await moderate.execute.call(executeContext({ text: 'hello', options }), 0, run);
		return { result, body: sent[0]?.body, sent };
	};

	it('only the text when no option is set; the answer is the output', async () => {
		const { result, sent } = await send();
		expect(sent).toEqual([{ method: 'POST', path: '/text', body: { text: 'hello' }, itemIndex: 0 }]);
		expect(result).toEqual({ isSafe: true });
	});

	it('the options that are set, Banned Words as a list; none left undefined', async () => {
		const meta = { postId: 'p-17' };
		const all = await send({ bannedWords: 'spoiler', actorId: 'u-1', meta: JSON.stringify(meta) });
		expect(all.body).toStrictEqual({ text: 'hello', options: { meta, metadata: meta, actorId: 'u-1', bannedWords: ['spoiler'] } });
		expect((await send({ actorId: 'u-1' })).body).toStrictEqual({ text: 'hello', options: { actorId: 'u-1' } });
	});

	it('Metadata that is not JSON fails the item naming the field; nothing is sent', async () => {
		const { run, sent } = fakeRun();
		const error = await rejection(moderate.execute.call(executeContext({ text: 'hi', options: { meta: '{oops' } }), 0, run));
		expect(error.message).toContain('Metadata (JSON)');
		expect(sent).toEqual([]);
	});
});
