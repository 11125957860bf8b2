import {
	PROFANE_TEXT,
	PROFANE_TEXT_FILTERED,
	SAFE_TEXT,
} from '../../../dev/mock/fixtures';
import { REJECT_AT } from '../../../dev/mock/analysis';
import { analyzeText } from '../../../dev/mock/text-analysis';

describe('text analysis', () => {
	it('filters profanity with one * per character and flags it', () => {
		const result = analyzeText(PROFANE_TEXT);
		expect(result.filteredContent).toBe(PROFANE_TEXT_FILTERED);
		expect(result.filteredContent).toHaveLength(PROFANE_TEXT.length);
		expect(result.summary.profanity).toBe(true);
		expect(result.nsfwCategories[0].category).toBe('strong_language');
		expect(result.sentiment).toBe('negative');
		expect(result.isSafe).toBe(false);
		expect(result.topics).toEqual(['product']);
	});

	it('an insult with profanity is not safe, and is marked at least for review', () => {
		const result = analyzeText('you are a fucking idiot');
		expect(result.summary.profanity).toBe(true);
		expect(result.riskScores.overall).toBeLessThan(REJECT_AT);
		expect(result.isSafe).toBe(false);
		expect(result.suggestedActions).toEqual({ reject: false, review: true });
	});

	it('gives a clean text a safe, positive result with topics', () => {
		const result = analyzeText(SAFE_TEXT);
		expect(result).toMatchObject({
			isSafe: true,
			sentiment: 'positive',
			filteredContent: SAFE_TEXT,
			content: SAFE_TEXT,
			nsfwCategories: [],
			summary: { profanity: false, totalFlags: 0, contentRating: 'G', language: 'en' },
			suggestedActions: { reject: false, review: false },
		});
		expect(result.sentimentScore).toBeGreaterThan(50);
		expect(result.topics).toEqual(['wonderful', 'sunny', 'afternoon', 'picnic', 'park']);
	});

	it('detects the language with tinyld and falls back to en', () => {
		expect(analyzeText('Bonjour, je suis très content de vous voir aujourd’hui').summary.language).toBe('fr');
		expect(analyzeText('Das ist ein sehr schöner Tag und wir gehen heute spazieren').summary.language).toBe('de');
		expect(analyzeText('hi').summary.language).toBe('en');
	});

	it('scores sentiment 1..100 around a neutral 50', () => {
		expect(analyzeText('The meeting is on Tuesday.')).toMatchObject({ sentiment: 'neutral', sentimentScore: 50 });
		const negative = analyzeText('I hate this terrible awful movie');
		expect(negative.sentiment).toBe('negative');
		expect(negative.sentimentScore).toBeLessThan(50);
	});

	it('scores spam from links, spam words, shouting and !!!', () => {
		const spam = analyzeText('FREE PRIZE!!! CLICK https://win.test NOW');
		expect(spam.riskScores.spam).toBeGreaterThanOrEqual(REJECT_AT);
		expect(spam.suggestedActions.reject).toBe(true);
		expect(analyzeText(SAFE_TEXT).riskScores.spam).toBe(1);
	});

	it('weights text keywords below image keywords', () => {
		const result = analyzeText('Tonight we play poker at the casino');
		expect(result.nsfwCategories).toEqual([{ category: 'gambling', severity: 53 }]);
		expect(result.suggestedActions).toEqual({ reject: false, review: true });
	});

	it('carries every field of spec 2.3 and is deterministic', () => {
		const result = analyzeText(SAFE_TEXT);
		expect(Object.keys(result).sort()).toEqual(
			[
				'confidence', 'content', 'filteredContent', 'hash', 'isSafe', 'nsfwCategories', 'riskScores',
				'sentiment', 'sentimentScore', 'suggestedActions', 'summary', 'topics',
			].sort(),
		);
		expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
		expect(analyzeText(SAFE_TEXT)).toEqual(result);
	});
});
