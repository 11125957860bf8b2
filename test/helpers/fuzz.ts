/**
 * Hostile callbacks, seeded: a small PRNG (no dependency) and the bodies and tokens an attacker would
 * send to the trigger or to Callback > Receive. The same seed gives the same calls, so a failure is
 * replayed with FUZZ_SEED=<seed>; FUZZ_CALLS scales a run up.
 */
import type { IDataObject } from 'n8n-workflow';

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 38);
export const fuzzCalls = (fallback: number) => Number(process.env.FUZZ_CALLS ?? fallback);

/** mulberry32: 32-bit state, good enough to spread cases, trivially reproducible. */
export function prng(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (max: number) => Math.floor(next() * max);
	const pick = <T>(list: readonly T[]): T => list[int(list.length)];
	return { next, int, pick, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof prng>;

/** Forms of a secret a body may carry; the redaction must hide each. */
export function secretInBody(random: Random, secret: string): string {
	return random.pick([
		`https://n8n.example/webhook/x/callback?token=${encodeURIComponent(secret)}`,
		secret,
		`Bearer ${secret}`,
		Buffer.from(secret).toString('base64'),
		encodeURI(secret),
	]);
}

/** Tokens of every shape: the right one (query or header), missing, empty, cut, extended, cased, padded, repeated. */
export function tokenCase(random: Random, secret: string): { query: IDataObject; headers: IDataObject; valid: boolean } {
	const wrong = random.pick([
		'',
		secret.slice(0, -1),
		secret.slice(0, 8),
		secret.slice(1),
		`${secret}x`,
		secret.toUpperCase(),
		` ${secret} `,
		encodeURIComponent(secret),
		'wrong-token-0000000000',
	]);
	switch (random.int(6)) {
		case 0:
			return { query: { token: secret }, headers: {}, valid: true };
		case 1:
			return { query: {}, headers: { 'x-callback-token': secret }, valid: true };
		case 2:
			return { query: {}, headers: {}, valid: false };
		case 3:
			return { query: { token: [secret, secret] }, headers: {}, valid: false };
		case 4:
			return { query: { token: wrong }, headers: {}, valid: wrong === secret };
		default:
			return { query: {}, headers: { 'x-callback-token': wrong }, valid: wrong === secret };
	}
}

const DOT_IDS = ['.', '..', ' .. ', '%2e%2e', '../..', './x', 'a/../../b', '..%2f'];
const EVENTS = ['moderation.completed', 'queue.review.completed', 'moderation.failed', '', ' ', 'x'.repeat(5000), '__proto__', 'constructor'];

function oddId(random: Random): unknown {
	if (random.chance(0.25)) return random.pick(DOT_IDS);
	return random.pick<unknown>([
		`a7d3c9e2-${random.int(1e6)}`,
		random.pick(DOT_IDS),
		random.int(1e9),
		-0.5,
		null,
		'',
		[],
		{},
		true,
		'x'.repeat(300 + random.int(3000)),
		'a/b?c#d',
		undefined,
	]);
}

/** Stands for an array nested that deep, written into the JSON text (no recursion, no stringify of it). */
const deepMark = (depth: number) => `@@deep:${depth}@@`;
const unmarkDeep = (text: string) =>
	text.replace(/"@@deep:(\d+)@@"/g, (_, depth: string) => `${'['.repeat(Number(depth))}"bottom"${']'.repeat(Number(depth))}`);

/** A result-ish data object with hostile extras. */
function hostileData(random: Random, secret: string): IDataObject {
	const data: IDataObject = {};
	const id = oddId(random);
	if (id !== undefined) data.id = id as IDataObject[string];
	if (random.chance(0.6)) data.isSafe = random.chance(0.5);
	if (random.chance(0.4)) data.summary = 'a landscape';
	if (random.chance(0.3)) data.description = 'a landscape, description';
	if (random.chance(0.2)) data.filteredContent = 'hello';
	if (random.chance(0.2)) data.status = 'accepted';
	if (random.chance(0.3)) data.json = random.pick<IDataObject[string]>(['hello', { isSafe: true }, 1]);
	if (random.chance(0.3)) data.binary = { data: { data: 'PGgxPg==', mimeType: 'text/html', fileName: 'x.html' } };
	if (random.chance(0.3)) data.error = { message: 'sender says failed' };
	if (random.chance(0.2)) Object.defineProperty(data, 'constructor', { value: { prototype: { polluted: 'yes' } }, enumerable: true });
	if (random.chance(0.3)) data.meta = random.chance(0.5) ? deepMark(random.pick([3, 40, 70, 5000, 20000])) : 'x'.repeat(random.int(200_000));
	if (random.chance(0.4)) data.callbackUrl = secretInBody(random, secret);
	return data;
}

/** A body as n8n would hand it over: its raw text, and the content type it came with. */
export function hostileBody(random: Random, secret: string): { text: string; contentType: string } {
	const data = hostileData(random, secret);
	let text: string;
	const shape = random.int(10);
	if (shape < 5) {
		text = JSON.stringify({ event: random.pick(EVENTS), data });
	} else if (shape < 7) {
		text = JSON.stringify(data);
	} else if (shape === 7) {
		text = random.pick(['', '[]', '"{\\"id\\":\\"j1\\",\\"isSafe\\":true}"', '42', 'null', '{"event":"moderation.completed"}', 'not json']);
	} else {
		text = JSON.stringify({ event: random.pick(EVENTS), data: random.pick<unknown>([null, 'x', [], 1]) });
	}
	// Own __proto__ keys, as JSON.parse makes them (a literal here would set a prototype instead).
	if (random.chance(0.3)) text = text.replace(/^\{/, `{"__proto__":${random.pick(['{"polluted":"yes"}', 'null', '[]'])},`).replace(/^\{(.*),\}$/, '{$1}');
	text = unmarkDeep(text);
	const contentType = random.pick(['application/json', 'application/json', 'text/plain', '']);
	return { text, contentType };
}

/** The path part of every property failure, for one message that lists them all. */
export class Violations {
	readonly found: string[] = [];
	check(ok: boolean, what: string, seed: number): void {
		if (!ok && this.found.length < 20) this.found.push(`call ${seed}: ${what}`);
	}
}
