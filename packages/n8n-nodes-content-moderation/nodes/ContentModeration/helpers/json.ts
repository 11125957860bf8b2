import type { IDataObject } from 'n8n-workflow';

/** A plain JSON object: not null, not an array, not a Buffer. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** Far deeper than a result (3 levels) plus any metadata, far below what recursive code (JSON.stringify) takes. */
export const MAX_DEPTH = 64;

/** Iterative, so that any depth is measured safely. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (current === null || typeof current !== 'object' || Buffer.isBuffer(current)) continue;
		if (depth + 1 > max) return true;
		for (const entry of Object.values(current)) stack.push([entry, depth + 1]);
	}
	return false;
}
