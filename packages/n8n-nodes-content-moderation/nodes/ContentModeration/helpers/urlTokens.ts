/** The callback token in a URL (`?token=`, inbound/token.ts puts it there): found wherever a URL is, to be redacted. */
const TOKEN_IN_URL = /[?&]token=([^&#]*)/gi;

function decoded(value: string): string {
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '));
	} catch {
		return value;
	}
}

/** The token values a (possibly malformed) URL carries, raw and decoded. */
export function tokensInUrl(url: string): string[] {
	const found = new Set<string>();
	for (const match of url.matchAll(TOKEN_IN_URL)) {
		if (match[1] === '') continue;
		found.add(match[1]);
		found.add(decoded(match[1]));
	}
	return [...found];
}
