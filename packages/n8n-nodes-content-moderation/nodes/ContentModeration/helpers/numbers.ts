/** A number, or a numeric text (" 70 ", from an expression or a re-serialised result); undefined otherwise. */
export function finiteNumber(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The one normalizer behind every numeric setting: a whole number within min..max, `fallback` for no number. */
export function clampInteger(value: unknown, min: number, max: number, fallback: number): number {
	const n = finiteNumber(value);
	return n === undefined ? fallback : Math.min(max, Math.max(min, Math.floor(n)));
}
