/**
 * The rule an operation's `action` follows (n8n names a node added from the nodes panel after it): short
 * and n8n-like, "Get a row": one capital, the first letter; no punctuation; at most 6 words, 32 characters.
 */
export function isShortActionName(action: string): boolean {
	return action.length <= 32 && action.split(' ').length <= 6 && /^[A-Z][a-z]*( [a-z]+)+$/.test(action);
}
