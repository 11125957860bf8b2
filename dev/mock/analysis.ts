/** The verdict rules the mock's image and text analyses share: result shapes, thresholds, keywords, scores. */
import { createHash } from 'node:crypto';

// Every rule here and in image-analysis.ts / text-analysis.ts is described in docs/service-interface.md
// ("Analysis"); keep them in step.

export interface NsfwCategory {
	category: string;
	severity: number;
}

interface RiskScores {
	overall: number;
	spam: number;
	toxicity: number;
}

interface SuggestedActions {
	reject: boolean;
	review: boolean;
}

export type SentimentLabel = 'positive' | 'negative' | 'neutral';

/**
 * The image result of the API reference (`image/create`, `image/get`: no `id`) plus the client-library
 * fields of the spec (sentiment, sentimentScore, request, summary.profanity). Callbacks and queue items
 * carry it with its `id` (`ImageResult & { id }`).
 */
export interface ImageResult {
	summary: { totalFlags: number; contentRating: string; language: string; profanity: boolean };
	isSafe: boolean;
	confidence: number;
	description: string;
	riskScores: RiskScores;
	topics: string[];
	nsfwCategories: NsfwCategory[];
	suggestedActions: SuggestedActions;
	sentiment: SentimentLabel;
	sentimentScore: number;
	request: { requestId: string; timestamp: string };
	meta: unknown;
	hash: string;
}

/** The API reference's text result (`text/create`, `text/get`), every field present, plus the SDK's `original` and `actorId`. */
export interface TextModeration {
	id: string;
	isSafe: boolean;
	confidence: number;
	sentiment: SentimentLabel;
	sentimentScore: number;
	riskScores: RiskScores;
	topics: string[];
	nsfwCategories: NsfwCategory[];
	summary: { profanity: boolean; totalFlags: number; contentRating: string; language: string };
	suggestedActions: SuggestedActions;
	filteredContent: string;
	content: string;
	/** The SDK's type lists it beside `content`: the text as sent */
	original: string;
	request: { requestId: string; timestamp: string };
	hash: string;
	meta: unknown;
	/** Only when the request gave one (the SDK's type: optional) */
	actorId?: string;
}

/** The analysis without the per-request fields (id, request, meta). */
export type ImageAnalysis = Omit<ImageResult, 'request' | 'meta'>;
export type TextAnalysis = Omit<TextModeration, 'id' | 'request' | 'meta' | 'original' | 'actorId'>;

/** Verdict thresholds on riskScores.overall. */
export const REJECT_AT = 75;
export const REVIEW_AT = 40;
/** Text keywords are weaker evidence than an image label: their severities are scaled by this. */
export const TEXT_KEYWORD_WEIGHT = 0.75;

/** Keyword tokens → category and severity. A token matches a whole word of the URL, marker or text. */
export const CATEGORY_KEYWORDS: Record<string, { severity: number; words: string[] }> = {
	adult_content: { severity: 92, words: ['nsfw', 'adult', 'porn', 'xxx', 'nude', 'nudity', 'explicit', 'sexual'] },
	suggestive_imagery: { severity: 62, words: ['suggestive', 'lingerie', 'bikini', 'swimsuit', 'underwear'] },
	strong_language: { severity: 58, words: ['profanity', 'swearing', 'obscene', 'cursing'] },
	violence_gore: { severity: 88, words: ['violence', 'violent', 'gore', 'gory', 'blood', 'bloody', 'weapon', 'gun'] },
	horror_disturbing: { severity: 66, words: ['horror', 'disturbing', 'scary', 'creepy', 'zombie', 'corpse'] },
	alcohol: { severity: 45, words: ['alcohol', 'beer', 'wine', 'vodka', 'whisky', 'whiskey', 'cocktail', 'drunk'] },
	tobacco: { severity: 44, words: ['tobacco', 'cigarette', 'cigarettes', 'cigar', 'smoking', 'vape'] },
	substance_use: { severity: 78, words: ['drugs', 'cannabis', 'marijuana', 'cocaine', 'heroin', 'syringe'] },
	gambling: { severity: 70, words: ['gambling', 'casino', 'poker', 'slots', 'betting', 'roulette'] },
	dating_relationship: { severity: 32, words: ['dating', 'romance', 'kiss', 'kissing'] },
	medical_procedures: { severity: 52, words: ['medical', 'surgery', 'injection', 'operation'] },
	crude_humor: { severity: 36, words: ['crude', 'fart', 'toilet'] },
	political_content: { severity: 42, words: ['political', 'politics', 'election', 'protest', 'propaganda'] },
};
const KEYWORD_INDEX = new Map<string, string>();
for (const [category, { words }] of Object.entries(CATEGORY_KEYWORDS)) {
	for (const word of words) KEYWORD_INDEX.set(word, category);
}

export const SPAM_WORDS = new Set([
	'spam', 'promo', 'free', 'winner', 'prize', 'click', 'offer', 'discount', 'coupon', 'subscribe', 'giveaway',
	'viagra', 'cheap', 'bonus', 'cash',
]);

/** Words that are never topics: URL noise and common English function words. */
const NOT_TOPICS = new Set(
	(
		'http https www com net org test img image images photo photos picture pic static cdn assets media files ' +
		'upload uploads jpg jpeg png gif webp mock example localhost ' +
		'the and for are but not you all any can had her was one our out has him his how its may new now old see ' +
		'two way who did get let put say she too use yes why off own per via got ' +
		'about above after again against also been before being below between both could does doing down during ' +
		'each from further have having here into itself just more most other over same should some such than ' +
		'that their theirs them then there these they this those through under until very were what when where ' +
		'which while will with would your yours ours mine shall only really today tomorrow yesterday because'
	).split(' '),
);

export const RATINGS = ['G', 'PG', 'PG-13', 'R', 'NC-17'] as const;

export function clampScore(value: number): number {
	return Math.min(100, Math.max(1, Math.round(value)));
}

export function sha256(data: string | Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}

/** Content rating from the highest category severity. */
export function contentRating(maxSeverity: number): string {
	if (maxSeverity < 20) return 'G';
	if (maxSeverity < 40) return 'PG';
	if (maxSeverity < 60) return 'PG-13';
	if (maxSeverity < 80) return 'R';
	return 'NC-17';
}

export function verdict(overall: number): SuggestedActions & { isSafe: boolean } {
	const reject = overall >= REJECT_AT;
	return { isSafe: !reject, reject, review: !reject && overall >= REVIEW_AT };
}

export function words(text: string): string[] {
	return text.toLowerCase().match(/\p{L}+/gu) ?? [];
}

/** Categories named by keywords among the words, highest severity first. */
export function keywordCategories(tokens: string[], weight: number): NsfwCategory[] {
	const found = new Map<string, number>();
	for (const token of tokens) {
		const category = KEYWORD_INDEX.get(token);
		if (category) found.set(category, clampScore(CATEGORY_KEYWORDS[category].severity * weight));
	}
	return [...found].map(([category, severity]) => ({ category, severity })).sort((a, b) => b.severity - a.severity);
}

/** Up to five topics: most frequent words of 3+ letters that are not noise, first seen first on a tie. */
export function topicsOf(tokens: string[]): string[] {
	const counts = new Map<string, number>();
	for (const token of tokens) {
		if (token.length < 3 || NOT_TOPICS.has(token)) continue;
		counts.set(token, (counts.get(token) ?? 0) + 1);
	}
	return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([token]) => token);
}

export function combinedRisk(categories: NsfwCategory[], ...scores: number[]): number {
	const top = categories[0]?.severity ?? 0;
	return clampScore(Math.max(top + 2 * Math.max(0, categories.length - 1), ...scores));
}
