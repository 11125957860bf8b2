/**
 * The callback secret in a callback URL. The spec shows no signing of callbacks, so the only thing the
 * service can carry back is the URL it was given: the secret travels as its `token` query parameter.
 */

/** Where the trigger looks for the secret: `?token=` or this header. */
export const TOKEN_QUERY_PARAMETER = 'token';
export const TOKEN_HEADER = 'x-callback-token';

/** The Callback URL field's help (Image and Text > Moderate): where to point it, and the path for bursts. */
export const CALLBACK_URL_HELP =
	"Where the service sends the result when it is ready: the Production URL of a Content Moderation Trigger, or, when many moderations can finish at once, of n8n's Webhook node followed by Callback > Receive (200 completions at once at n8n's default settings: the Webhook path passed on all 200, the trigger lost more than half; setting N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on n8n keeps the trigger lossless too). When the credential has a Callback Secret, it is added to this URL as ?token=… for you.";

const TOKEN_IN_URL = /[?&]token=([^&#]*)/gi;

function decoded(value: string): string {
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '));
	} catch {
		return value;
	}
}

/** The token values a (possibly malformed) URL carries, raw and decoded, so they can be redacted. */
export function tokensInUrl(url: string): string[] {
	const found = new Set<string>();
	for (const match of url.matchAll(TOKEN_IN_URL)) {
		if (match[1] === '') continue;
		found.add(match[1]);
		found.add(decoded(match[1]));
	}
	return [...found];
}

/**
 * The URL with `token=<secret>` added, unless the secret is empty (a URL with a token of its own is
 * refused before: checkNoPastedToken). The rest of the URL is kept byte for byte.
 */
export function withCallbackSecret(url: string, secret: string): string {
	if (secret === '') return url;
	const hashAt = url.indexOf('#');
	const base = hashAt < 0 ? url : url.slice(0, hashAt);
	const fragment = hashAt < 0 ? '' : url.slice(hashAt);
	const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
	return `${base}${separator}${TOKEN_QUERY_PARAMETER}=${encodeURIComponent(secret)}${fragment}`;
}
