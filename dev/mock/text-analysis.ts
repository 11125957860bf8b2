/** Deterministic text moderation (the text result of POST /text) with obscenity, tinyld and sentiment, and banned words. */
import {
	asteriskCensorStrategy,
	englishDataset,
	englishRecommendedTransformers,
	RegExpMatcher,
	TextCensor,
} from 'obscenity';
import Sentiment from 'sentiment';
import { detect, toISO2 } from 'tinyld';

import {
	clampScore,
	combinedRisk,
	contentRating,
	keywordCategories,
	sha256,
	SPAM_WORDS,
	TEXT_KEYWORD_WEIGHT,
	topicsOf,
	verdict,
	words,
	type SentimentLabel,
	type TextAnalysis,
} from './analysis';

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const censor = new TextCensor().setStrategy(asteriskCensorStrategy());
const sentimentAnalyzer = new Sentiment();

/** ISO 639-1 code from tinyld; 'en' when it cannot tell (short texts) or has no two-letter code. */
function detectLanguage(text: string): string {
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

/** Start and end (exclusive) of every whole-word, case-insensitive occurrence of a banned word or phrase. */
export function bannedSpans(content: string, bannedWords: string[]): Array<[number, number]> {
	const spans: Array<[number, number]> = [];
	for (const word of bannedWords) {
		const escaped = word.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu');
		for (const match of content.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
	}
	return spans;
}

/** Every UTF-16 code unit inside the spans replaced by '*' (the length is kept, as the profanity censor keeps it). */
function mask(text: string, spans: Array<[number, number]>): string {
	const units = text.split('');
	for (const [start, end] of spans) for (let i = start; i < end; i++) units[i] = '*';
	return units.join('');
}

/**
 * The moderation of a text: every field of a text moderation but id, request and meta. Banned words
 * (the request's `options.bannedWords`) are masked in `filteredContent` like profanity and flag the text.
 */
export function analyzeText(content: string, bannedWords: string[] = []): TextAnalysis {
	const hash = sha256(content);
	const digest = Buffer.from(hash, 'hex');
	const matches = matcher.getAllMatches(content, true);
	const censored = censor.applyTo(content, matches);
	const banned = bannedSpans(content, bannedWords);
	// The asterisk censor keeps the length, so the banned spans found in the content mask the same places.
	const filteredContent = censored.length === content.length ? mask(censored, banned) : mask(content, banned);
	const tokens = words(content);
	// Topics come from the censored text, leaving out every word that lost a letter to the censor.
	const cleanTokens = (filteredContent.toLowerCase().match(/[\p{L}*]+/gu) ?? []).filter((t) => !t.includes('*'));
	const mood = sentimentAnalyzer.analyze(content);
	const sentiment: SentimentLabel = mood.score > 0 ? 'positive' : mood.score < 0 ? 'negative' : 'neutral';
	const sentimentScore = clampScore(50 + mood.comparative * 10);

	const categories = keywordCategories(tokens, TEXT_KEYWORD_WEIGHT).filter((c) => c.category !== 'strong_language');
	if (matches.length) {
		categories.push({ category: 'strong_language', severity: clampScore(55 + 10 * matches.length) });
	}
	if (banned.length) categories.push({ category: 'banned_words', severity: clampScore(55 + 10 * banned.length) });
	categories.sort((a, b) => b.severity - a.severity);
	const toxicity = clampScore(1 + 25 * matches.length + Math.max(0, 50 - sentimentScore));
	const spam = spamScore(content, tokens);
	const overall = combinedRisk(categories, spam, toxicity);
	const scored = verdict(overall);
	// Profanity or a banned word is never safe (an insult with a swear word scores below the reject line):
	// not safe, and at least marked for review.
	const profane = matches.length > 0 || banned.length > 0;
	const isSafe = scored.isSafe && !profane;
	const reject = scored.reject;
	const review = scored.review || (profane && !reject);
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
