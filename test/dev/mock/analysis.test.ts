import { crc32, inflateSync } from 'node:zlib';

import { analyzeImage, analyzeText, contentRating, REJECT_AT, REVIEW_AT, verdict } from '../../../dev/mock/analysis';
import { MockApiError } from '../../../dev/mock/errors';
import {
	makePng,
	mockImageUrl,
	PROFANE_TEXT,
	PROFANE_TEXT_FILTERED,
	REVIEW_IMAGE_BASE64,
	REVIEW_IMAGE_URL,
	SAFE_IMAGE_BASE64,
	SAFE_IMAGE_URL,
	SAFE_TEXT,
	UNSAFE_IMAGE_BASE64,
	UNSAFE_IMAGE_URL,
} from '../../../dev/mock/fixtures';
import { readPngText } from '../../../dev/mock/png';
import { parseImage } from '../../../dev/mock/validation';

const image = (value: string) => analyzeImage(parseImage(value, 'image'));

function chunksOf(png: Buffer): Array<{ type: string; data: Buffer }> {
	const chunks = [];
	for (let at = 8; at < png.length; ) {
		const length = png.readUInt32BE(at);
		const type = png.toString('latin1', at + 4, at + 8);
		const data = png.subarray(at + 8, at + 8 + length);
		expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
		chunks.push({ type, data });
		at += 12 + length;
	}
	return chunks;
}

describe('makePng', () => {
	it('builds a valid 1x1 PNG with correct CRCs and the marker in tEXt', () => {
		const png = makePng('casino night');
		expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
		const chunks = chunksOf(png);
		expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'tEXt', 'IDAT', 'IEND']);
		expect(chunks[0].data.readUInt32BE(0)).toBe(1);
		expect(chunks[0].data.readUInt32BE(4)).toBe(1);
		expect(inflateSync(chunks[2].data)).toHaveLength(4); // filter byte + RGB
		expect(readPngText(png)).toBe('casino night');
	});

	it('differs by marker and has no tEXt without one', () => {
		expect(makePng('a').equals(makePng('b'))).toBe(false);
		expect(chunksOf(makePng()).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
		expect(readPngText(makePng())).toBe('');
		expect(readPngText(Buffer.from('not a png'))).toBe('');
	});
});

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

describe('verdict rules', () => {
	it('rejects from REJECT_AT and asks review from REVIEW_AT', () => {
		expect(verdict(REVIEW_AT - 1)).toEqual({ isSafe: true, review: false, reject: false });
		expect(verdict(REVIEW_AT)).toEqual({ isSafe: true, review: true, reject: false });
		expect(verdict(REJECT_AT - 1)).toEqual({ isSafe: true, review: true, reject: false });
		expect(verdict(REJECT_AT)).toEqual({ isSafe: false, review: false, reject: true });
	});

	it('rates by the highest severity', () => {
		expect([0, 19, 20, 39, 40, 59, 60, 79, 80].map(contentRating)).toEqual([
			'G', 'G', 'PG', 'PG', 'PG-13', 'PG-13', 'R', 'R', 'NC-17',
		]);
	});
});

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
