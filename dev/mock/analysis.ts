import { createHash } from 'node:crypto';
import {
	asteriskCensorStrategy,
	englishDataset,
	englishRecommendedTransformers,
	RegExpMatcher,
	TextCensor,
} from 'obscenity';
import Sentiment from 'sentiment';
import { detect, toISO2 } from 'tinyld';

import { badField } from './errors';
import { readPngText } from './png';
import type { ImageInput } from './validation';

// Every rule below is described in README.md ("Analysis"); keep the two in step.

export interface NsfwCategory {
	category: string;
	severity: number;
}

export interface RiskScores {
	overall: number;
	spam: number;
	toxicity: number;
}

export interface SuggestedActions {
	reject: boolean;
	review: boolean;
}

export type SentimentLabel = 'positive' | 'negative' | 'neutral';

/** Spec 2.2 plus the client-library fields (id, sentiment, sentimentScore, request, summary.profanity). */
export interface ImageResult {
	id: string;
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

/** Spec 2.3, every field present. */
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
	request: { requestId: string; timestamp: string };
	hash: string;
	meta: unknown;
}

/** The analysis without the per-request fields (id, request, meta). */
export type ImageAnalysis = Omit<ImageResult, 'id' | 'request' | 'meta'>;
export type TextAnalysis = Omit<TextModeration, 'id' | 'request' | 'meta'>;

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
export const SPEC_CATEGORIES = Object.keys(CATEGORY_KEYWORDS);

const KEYWORD_INDEX = new Map<string, string>();
for (const [category, { words }] of Object.entries(CATEGORY_KEYWORDS)) {
	for (const word of words) KEYWORD_INDEX.set(word, category);
}

const SPAM_WORDS = new Set([
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

const RATINGS = ['G', 'PG', 'PG-13', 'R', 'NC-17'] as const;

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

function words(text: string): string[] {
	return text.toLowerCase().match(/\p{L}+/gu) ?? [];
}

/** Categories named by keywords among the words, highest severity first. */
function keywordCategories(tokens: string[], weight: number): NsfwCategory[] {
	const found = new Map<string, number>();
	for (const token of tokens) {
		const category = KEYWORD_INDEX.get(token);
		if (category) found.set(category, clampScore(CATEGORY_KEYWORDS[category].severity * weight));
	}
	return [...found].map(([category, severity]) => ({ category, severity })).sort((a, b) => b.severity - a.severity);
}

/** Up to five topics: most frequent words of 3+ letters that are not noise, first seen first on a tie. */
function topicsOf(tokens: string[]): string[] {
	const counts = new Map<string, number>();
	for (const token of tokens) {
		if (token.length < 3 || NOT_TOPICS.has(token)) continue;
		counts.set(token, (counts.get(token) ?? 0) + 1);
	}
	return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([token]) => token);
}

function combinedRisk(categories: NsfwCategory[], ...scores: number[]): number {
	const top = categories[0]?.severity ?? 0;
	return clampScore(Math.max(top + 2 * Math.max(0, categories.length - 1), ...scores));
}

// ---------------------------------------------------------------------------------------------------------
// Images

/** `mock_*` parameters a URL (query) or a PNG marker may carry to ask for exact numbers. */
export interface ImageOverrides {
	risk?: number;
	spam?: number;
	toxicity?: number;
	confidence?: number;
	safe?: boolean;
	review?: boolean;
	reject?: boolean;
	flags?: number;
	rating?: string;
	language?: string;
	profanity?: boolean;
	sentiment?: SentimentLabel;
	sentimentScore?: number;
	topics?: string[];
	description?: string;
	categories: NsfwCategory[];
}

const MOCK_PARAM = /(?:^|[?&#\s])mock_([a-z0-9_]+)=([^&#\s]*)/gi;

/** Splits a signal (URL text or PNG marker) into its mock_* overrides and the rest (for keywords). */
export function parseOverrides(signal: string, field = 'image'): { overrides: ImageOverrides; rest: string } {
	const paramError = (name: string, message: string): never => {
		throw badField(field, 'invalid_mock_parameter', `${field} parameter mock_${name} ${message}`);
	};
	const scoreParam = (name: string, value: string): number => {
		const n = Number(value);
		if (!/^\d+$/.test(value) || n < 1 || n > 100) paramError(name, 'must be an integer from 1 to 100');
		return n;
	};
	const booleanParam = (name: string, value: string): boolean => {
		if (value === '1' || value === 'true') return true;
		if (value === '0' || value === 'false') return false;
		return paramError(name, 'must be 1, 0, true or false');
	};
	const overrides: ImageOverrides = { categories: [] };
	const rest = signal.replace(MOCK_PARAM, (_all, rawName: string, rawValue: string) => {
		const name = rawName.toLowerCase();
		let value: string;
		try {
			value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
		} catch {
			return paramError(name, 'is not valid percent-encoding');
		}
		switch (name) {
			case 'risk':
			case 'spam':
			case 'toxicity':
			case 'confidence':
				overrides[name] = scoreParam(name, value);
				break;
			case 'sentiment_score':
				overrides.sentimentScore = scoreParam(name, value);
				break;
			case 'safe':
			case 'review':
			case 'reject':
			case 'profanity':
				overrides[name] = booleanParam(name, value);
				break;
			case 'flags':
				if (!/^\d+$/.test(value)) paramError(name, 'must be a whole number');
				overrides.flags = Number(value);
				break;
			case 'rating':
				if (!(RATINGS as readonly string[]).includes(value)) paramError(name, `must be one of ${RATINGS.join(', ')}`);
				overrides.rating = value;
				break;
			case 'language':
				if (!/^[a-z]{2}$/.test(value)) paramError(name, 'must be a two-letter lowercase code');
				overrides.language = value;
				break;
			case 'sentiment':
				if (value !== 'positive' && value !== 'negative' && value !== 'neutral') {
					paramError(name, 'must be positive, negative or neutral');
				}
				overrides.sentiment = value as SentimentLabel;
				break;
			case 'topics':
				overrides.topics = value.split(',').filter((topic) => topic !== '');
				break;
			case 'description':
				overrides.description = value;
				break;
			default: {
				const category = name.startsWith('category_') ? name.slice('category_'.length) : name;
				if (category === '' || (!name.startsWith('category_') && !(category in CATEGORY_KEYWORDS))) {
					paramError(name, 'is not a known mock parameter (see dev/mock/README.md)');
				}
				overrides.categories.push({ category, severity: scoreParam(name, value) });
			}
		}
		return ' ';
	});
	return { overrides, rest };
}

/** The text an image's analysis depends on: the URL itself, or the tEXt marker of a base64 PNG. */
export function imageSignal(image: ImageInput): string {
	return image.kind === 'url' ? image.url : readPngText(image.bytes);
}

export function imageHash(image: ImageInput): string {
	return image.kind === 'url' ? sha256(image.url) : sha256(image.bytes);
}

/**
 * Deterministic image analysis: keywords in the signal pick categories, `mock_*` parameters override any
 * number, and values not otherwise given derive from the content hash (so the same image always reads the
 * same). Throws a 400 naming `field` for a malformed mock parameter.
 */
export function analyzeImage(image: ImageInput, field = 'image'): ImageAnalysis {
	const hash = imageHash(image);
	const digest = Buffer.from(hash, 'hex');
	const { overrides: o, rest } = parseOverrides(imageSignal(image), field);
	const tokens = words(rest);
	const categories = o.categories.length
		? [...o.categories].sort((a, b) => b.severity - a.severity)
		: keywordCategories(tokens, 1);
	const severityOf = (name: string) => categories.find((c) => c.category === name)?.severity ?? 0;
	const spam = o.spam ?? (tokens.some((t) => SPAM_WORDS.has(t)) ? 85 : 1 + (digest[0] % 5));
	const toxicity =
		o.toxicity ??
		Math.max(1 + (digest[1] % 5), severityOf('violence_gore'), severityOf('strong_language'), severityOf('horror_disturbing'));
	const overall = o.risk ?? combinedRisk(categories, spam, toxicity, 1 + (digest[2] % 10));
	const derived = verdict(overall);
	const topics = o.topics ?? topicsOf(tokens);
	const flagged = categories.map((c) => c.category);
	return {
		summary: {
			totalFlags: o.flags ?? categories.length,
			contentRating: o.rating ?? contentRating(categories[0]?.severity ?? 0),
			language: o.language ?? 'en',
			profanity: o.profanity ?? severityOf('strong_language') > 0,
		},
		isSafe: o.safe ?? derived.isSafe,
		confidence: o.confidence ?? 80 + (digest[3] % 20),
		description:
			o.description ??
			`Mock analysis of an image showing ${topics.length ? topics.join(', ') : 'unidentified content'}` +
				(flagged.length ? `; flagged: ${flagged.join(', ')}` : ''),
		riskScores: { overall, spam, toxicity },
		topics,
		nsfwCategories: categories,
		suggestedActions: { reject: o.reject ?? derived.reject, review: o.review ?? derived.review },
		sentiment: o.sentiment ?? 'neutral',
		sentimentScore: o.sentimentScore ?? 50,
		hash,
	};
}

// ---------------------------------------------------------------------------------------------------------
// Texts

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const censor = new TextCensor().setStrategy(asteriskCensorStrategy());
const sentimentAnalyzer = new Sentiment();

/** ISO 639-1 code from tinyld; 'en' when it cannot tell (short texts) or has no two-letter code. */
export function detectLanguage(text: string): string {
	const found = detect(text);
	const iso2 = found.length === 2 ? found : found ? toISO2(found) : '';
	return /^[a-z]{2}$/.test(iso2) ? iso2 : 'en';
}

function spamScore(text: string, tokens: string[]): number {
	let score = 1;
	score += 30 * Math.min(3, (text.match(/https?:\/\/|www\./gi) ?? []).length);
	score += 20 * Math.min(3, tokens.filter((t) => SPAM_WORDS.has(t)).length);
	if (/!{3,}|\${2,}/.test(text)) score += 15;
	const letters = text.replace(/[^\p{L}]/gu, '');
	if (letters.length >= 10 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) score += 20;
	return clampScore(score);
}

/** Deterministic text moderation (spec 2.3) with obscenity, tinyld and sentiment; see README.md. */
export function analyzeText(content: string): TextAnalysis {
	const hash = sha256(content);
	const digest = Buffer.from(hash, 'hex');
	const matches = matcher.getAllMatches(content, true);
	const filteredContent = censor.applyTo(content, matches);
	const tokens = words(content);
	// Topics come from the censored text, leaving out every word that lost a letter to the censor.
	const cleanTokens = (filteredContent.toLowerCase().match(/[\p{L}*]+/gu) ?? []).filter((t) => !t.includes('*'));
	const mood = sentimentAnalyzer.analyze(content);
	const sentiment: SentimentLabel = mood.score > 0 ? 'positive' : mood.score < 0 ? 'negative' : 'neutral';
	const sentimentScore = clampScore(50 + mood.comparative * 10);

	const categories = keywordCategories(tokens, TEXT_KEYWORD_WEIGHT).filter((c) => c.category !== 'strong_language');
	if (matches.length) {
		categories.push({ category: 'strong_language', severity: clampScore(55 + 10 * matches.length) });
		categories.sort((a, b) => b.severity - a.severity);
	}
	const toxicity = clampScore(1 + 25 * matches.length + Math.max(0, 50 - sentimentScore));
	const spam = spamScore(content, tokens);
	const overall = combinedRisk(categories, spam, toxicity);
	const { isSafe, reject, review } = verdict(overall);
	return {
		isSafe,
		confidence: 80 + (digest[0] % 20),
		sentiment,
		sentimentScore,
		riskScores: { overall, spam, toxicity },
		topics: topicsOf(cleanTokens),
		nsfwCategories: categories,
		summary: {
			profanity: matches.length > 0,
			totalFlags: categories.length,
			contentRating: contentRating(categories[0]?.severity ?? 0),
			language: detectLanguage(content),
		},
		suggestedActions: { reject, review },
		filteredContent,
		content,
		hash,
	};
}
