/**
 * Whatever a user typed (number or numeric text) as a whole number within min..max; `fallback` when it
 * is not a number at all. The one normalizer behind every numeric setting.
 */
export function clampInteger(value: unknown, min: number, max: number, fallback: number): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
	return Math.min(max, Math.max(min, Math.floor(n)));
}
