import type { ImageOverrides } from './image-analysis';
import { makePng } from './png';

export { makePng } from './png';

/** isSafe true, no categories, reject and review false. */
export const SAFE_IMAGE_URL = 'https://img.test/cat.jpg';
/** adult_content 92: isSafe false, reject true, review false, NC-17. */
export const UNSAFE_IMAGE_URL = 'https://img.test/nsfw.jpg';
/** gambling 70: isSafe true, reject false, review true, R. */
export const REVIEW_IMAGE_URL = 'https://img.test/casino-gambling.jpg';

/** The same three verdicts as base64 PNGs (the marker sits in a tEXt chunk). */
export const SAFE_IMAGE_BASE64 = makePng('cat').toString('base64');
export const UNSAFE_IMAGE_BASE64 = makePng('nsfw').toString('base64');
export const REVIEW_IMAGE_BASE64 = makePng('casino gambling').toString('base64');

/** Texts (POST /text, text queue items): a clean English text, one with profanity (and its filteredContent), one for review. */
export const SAFE_TEXT = 'What a wonderful sunny afternoon for a picnic in the park with friends.';
export const PROFANE_TEXT = 'This fucking product is shit.';
export const PROFANE_TEXT_FILTERED = 'This ****ing product is ****.';
/** gambling words: overall 53, isSafe true, review true, no profanity */
export const REVIEW_TEXT = "Let's play poker at the casino tonight";

/**
 * Exact numbers for an image URL: any `mock_*` parameter (docs/service-interface.md, "Asking for exact numbers"), with
 * categories as `{ name: severity }`.
 */
export type MockImageSpec = Partial<Omit<ImageOverrides, 'categories'>> & { categories?: Record<string, number> };

/** Builds an image URL whose analysis carries exactly the given numbers, e.g. `mockImageUrl({ risk: 70 })`. */
export function mockImageUrl(spec: MockImageSpec, name = 'x'): string {
	const url = new URL(`https://img.test/${encodeURIComponent(name)}.jpg`);
	const { categories = {}, ...fields } = spec;
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined) continue;
		const param = `mock_${key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
		url.searchParams.append(param, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
	}
	for (const [category, severity] of Object.entries(categories)) {
		url.searchParams.append(`mock_category_${category}`, String(severity));
	}
	return url.toString();
}
