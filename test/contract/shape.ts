/** Checks a JSON value against a documented shape (vendor-facts.ts) and lists every difference. */
import type { FieldSpec, Shape } from './vendor-facts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function check(value: unknown, spec: FieldSpec, at: string, problems: string[]): void {
	const fail = (what: string) => problems.push(`${at}: ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`);
	if (spec === 'any') return;
	if (spec === 'absent') return void fail('should be absent');
	if (spec === 'uuid') {
		if (typeof value !== 'string' || !UUID.test(value)) fail('a UUID');
		return;
	}
	if (spec === 'string[]') {
		if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail('a list of strings');
		return;
	}
	if (spec === 'string' || spec === 'number' || spec === 'boolean') {
		if (typeof value !== spec) fail(`a ${spec}`);
		return;
	}
	if ('oneOf' in spec && Array.isArray(spec.oneOf)) {
		if (!spec.oneOf.includes(value)) fail(`one of ${spec.oneOf.join(', ')}`);
		return;
	}
	if ('listOf' in spec && isObject(spec.listOf)) {
		if (!Array.isArray(value)) return void fail('a list');
		value.forEach((entry, i) => check(entry, spec.listOf as Shape, `${at}[${i}]`, problems));
		return;
	}
	if (!isObject(value)) return void fail('an object');
	for (const [rawName, fieldSpec] of Object.entries(spec as Shape)) {
		const optional = rawName.endsWith('?');
		const name = optional ? rawName.slice(0, -1) : rawName;
		const path = at ? `${at}.${name}` : name;
		if (!(name in value)) {
			if (!optional && fieldSpec !== 'absent') problems.push(`${path}: missing`);
			continue;
		}
		check(value[name], fieldSpec, path, problems);
	}
}

/** Every way `value` differs from `shape` (empty when it matches); extra fields are allowed. */
export function shapeProblems(value: unknown, shape: Shape): string[] {
	const problems: string[] = [];
	check(value, shape, '', problems);
	return problems;
}
