import { MockApiError } from '../../../dev/mock/errors';
import {
	makePng,
	mockImageUrl,
	REVIEW_IMAGE_BASE64,
	REVIEW_IMAGE_URL,
	SAFE_IMAGE_BASE64,
	SAFE_IMAGE_URL,
	UNSAFE_IMAGE_BASE64,
	UNSAFE_IMAGE_URL,
} from '../../../dev/mock/fixtures';
import { analyzeImage } from '../../../dev/mock/image-analysis';
import { parseImage } from '../../../dev/mock/validation';

const image = (value: string) => analyzeImage(parseImage(value, 'image'));

describe('image analysis', () => {
	it.each([
		['SAFE_IMAGE_URL', SAFE_IMAGE_URL, { isSafe: true, review: false, reject: false }],
		['SAFE_IMAGE_BASE64', SAFE_IMAGE_BASE64, { isSafe: true, review: false, reject: false }],
		['UNSAFE_IMAGE_URL', UNSAFE_IMAGE_URL, { isSafe: false, review: false, reject: true }],
		['UNSAFE_IMAGE_BASE64', UNSAFE_IMAGE_BASE64, { isSafe: false, review: false, reject: true }],
		['REVIEW_IMAGE_URL', REVIEW_IMAGE_URL, { isSafe: true, review: true, reject: false }],
		['REVIEW_IMAGE_BASE64', REVIEW_IMAGE_BASE64, { isSafe: true, review: true, reject: false }],
	])('%s has the documented verdict', (_name, value, expected) => {
		const result = image(value);
		expect({ isSafe: result.isSafe, ...result.suggestedActions }).toEqual(expected);
	});

	it('is deterministic and keeps every score an integer in 1..100', () => {
		for (const value of [SAFE_IMAGE_URL, UNSAFE_IMAGE_URL, REVIEW_IMAGE_URL, 'https://cdn.test/gore-horror-beer.png']) {
			const first = image(value);
			expect(image(value)).toEqual(first);
			const scores = [first.confidence, first.sentimentScore, ...Object.values(first.riskScores)];
			scores.push(...first.nsfwCategories.map((c) => c.severity));
			for (const score of scores) expect(Number.isInteger(score) && score >= 1 && score <= 100).toBe(true);
			expect(first.summary.totalFlags).toBe(first.nsfwCategories.length);
			for (const topic of first.topics) expect(topic).toMatch(/^\p{Ll}+$/u);
		}
	});

	it('maps keywords to spec categories on whole words only', () => {
		const mixed = image('https://cdn.test/gore-horror-beer.png');
		expect(mixed.nsfwCategories.map((c) => c.category)).toEqual(['violence_gore', 'horror_disturbing', 'alcohol']);
		expect(mixed.riskScores.overall).toBe(92); // 88 + 2 per extra category
		expect(mixed.summary.contentRating).toBe('NC-17');
		expect(image('https://img.test/bloodhound-catalog.jpg').nsfwCategories).toEqual([]);
	});

	it('takes exact numbers from mock_ parameters and derives the rest', () => {
		const result = image('https://img.test/x.jpg?mock_risk=70&mock_violence_gore=85&mock_review=1&mock_reject=0&mock_safe=0');
		expect(result).toMatchObject({
			isSafe: false,
			riskScores: { overall: 70, toxicity: 85 },
			nsfwCategories: [{ category: 'violence_gore', severity: 85 }],
			suggestedActions: { review: true, reject: false },
			summary: { totalFlags: 1, contentRating: 'NC-17' },
		});
		const all = image(
			'https://img.test/nsfw.jpg?mock_spam=3&mock_toxicity=4&mock_confidence=55&mock_flags=9&mock_rating=PG' +
				'&mock_language=fr&mock_profanity=true&mock_sentiment=negative&mock_sentiment_score=12&mock_topics=a,b' +
				'&mock_description=Two%20cats&mock_category_sexual_content=40',
		);
		expect(all).toMatchObject({
			riskScores: { overall: 40, spam: 3, toxicity: 4 },
			confidence: 55,
			summary: { totalFlags: 9, contentRating: 'PG', language: 'fr', profanity: true },
			sentiment: 'negative',
			sentimentScore: 12,
			topics: ['a', 'b'],
			description: 'Two cats',
			nsfwCategories: [{ category: 'sexual_content', severity: 40 }],
			suggestedActions: { review: true, reject: false },
		});
	});

	it('reads mock_ parameters from a PNG marker too', () => {
		const result = image(makePng('mock_risk=75 mock_gambling=75').toString('base64'));
		expect(result.riskScores.overall).toBe(75);
		expect(result.suggestedActions).toEqual({ reject: true, review: false });
	});

	it('builds mock URLs with mockImageUrl', () => {
		expect(mockImageUrl({ risk: 40, review: true, categories: { gambling: 40 } }, 'edge')).toBe(
			'https://img.test/edge.jpg?mock_risk=40&mock_review=1&mock_category_gambling=40',
		);
		const url = mockImageUrl({ sentimentScore: 9, topics: ['a', 'b'], description: 'Two cats & a dog' });
		expect(image(url)).toMatchObject({ sentimentScore: 9, topics: ['a', 'b'], description: 'Two cats & a dog' });
	});

	it.each(['mock_risk=0', 'mock_risk=101', 'mock_risk=7.5', 'mock_safe=maybe', 'mock_rating=X', 'mock_language=eng', 'mock_nope=1', 'mock_gambling=0'])(
		'refuses %s as a 400 naming image',
		(param) => {
			let thrown: unknown;
			try {
				image(`https://img.test/x.jpg?${param}`);
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(MockApiError);
			expect((thrown as MockApiError).toBody().error).toMatchObject({ status: 400, field: 'image' });
		},
	);
});
