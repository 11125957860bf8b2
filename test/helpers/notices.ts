/**
 * A notice a user can act on (`type: 'notice'` properties of a panel): at most MAX_SENTENCES short sentences
 * saying what to do; why lives in the docs page the node's Docs link opens.
 */
import type { INodeProperties } from 'n8n-workflow';

export const MAX_SENTENCES = 2;
export const MAX_WORDS_PER_SENTENCE = 30;

/** A text's sentences: it is cut after a `.`, `?` or `!` that a space or the end follows. */
export function sentences(text: string): string[] {
	return text.split(/(?<=[.?!])\s+/).filter((s) => s.trim() !== '');
}

/** What makes a notice too long to act on: too many sentences, or a sentence of too many words. */
export function noticeProblems(notice: INodeProperties): string[] {
	const all = sentences(notice.displayName);
	const problems = all.length > MAX_SENTENCES ? [`${notice.name}: ${all.length} sentences`] : [];
	for (const sentence of all) {
		const words = sentence.split(/\s+/).length;
		if (words > MAX_WORDS_PER_SENTENCE) problems.push(`${notice.name}: ${words} words in "${sentence}"`);
	}
	return problems;
}

export function notices(properties: INodeProperties[]): INodeProperties[] {
	return properties.filter((p) => p.type === 'notice');
}
