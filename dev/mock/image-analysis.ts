/** Deterministic image analysis: keywords in the URL or PNG marker, or exact numbers from `mock_*` parameters. */
import { badField } from './errors';
import { readPngText } from './png';
import type { ImageInput } from './validation';
import {
	CATEGORY_KEYWORDS,
	combinedRisk,
	contentRating,
	keywordCategories,
	RATINGS,
	sha256,
	SPAM_WORDS,
	topicsOf,
	verdict,
	words,
	type ImageAnalysis,
	type NsfwCategory,
	type SentimentLabel,
} from './analysis';

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
function parseOverrides(signal: string, field = 'image'): { overrides: ImageOverrides; rest: string } {
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
			case 'fail':
				// Read by the review queue (`imageFails`), not by the analysis.
				break;
			default: {
				const category = name.startsWith('category_') ? name.slice('category_'.length) : name;
				if (category === '' || (!name.startsWith('category_') && !(category in CATEGORY_KEYWORDS))) {
					paramError(name, 'is not a known mock parameter (see docs/service-interface.md)');
				}
				overrides.categories.push({ category, severity: scoreParam(name, value) });
			}
		}
		return ' ';
	});
	return { overrides, rest };
}

/** The text an image's analysis depends on: the URL itself, or the tEXt marker of a base64 PNG. */
function imageSignal(image: ImageInput): string {
	return image.kind === 'url' ? image.url : readPngText(image.bytes);
}

/** Whether the content asks its moderation to fail (a queue item then reads `status: "error"`): `mock_fail` in it. */
export function moderationFails(content: string | ImageInput): boolean {
	const signal = typeof content === 'string' ? content : imageSignal(content);
	return /mock_fail/i.test(signal);
}

function imageHash(image: ImageInput): string {
	return image.kind === 'url' ? sha256(image.url) : sha256(image.bytes);
}

/** A short description of what the image depicts, as the service words one: its topics, then its categories. */
function describe(topics: string[], flagged: string[]): string {
	const subject = topics.length ? topics.join(' ') : 'an image with no recognisable subject';
	const shown = flagged.map((category) => category.replace(/_/g, ' ')).join(' and ');
	return `${subject.charAt(0).toUpperCase()}${subject.slice(1)}${shown ? ` showing ${shown}` : ''}`;
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
		description: o.description ?? describe(topics, flagged),
		riskScores: { overall, spam, toxicity },
		topics,
		nsfwCategories: categories,
		suggestedActions: { reject: o.reject ?? derived.reject, review: o.review ?? derived.review },
		sentiment: o.sentiment ?? 'neutral',
		sentimentScore: o.sentimentScore ?? 50,
		hash,
	};
}
