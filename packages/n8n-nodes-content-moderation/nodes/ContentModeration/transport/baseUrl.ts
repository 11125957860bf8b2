/**
 * Returns the base URL without trailing slashes, or an error text that names the credential field.
 * Free of n8n types so that the credential and its tests can share it.
 */
export function parseBaseUrl(raw: unknown): { url: string } | { error: string } {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '') {
		return { error: 'The Base URL of the Content Moderation API credential is empty' };
	}
	if (!/^https?:\/\//i.test(value)) {
		return {
			error: `The Base URL "${value}" of the Content Moderation API credential must start with http:// or https://`,
		};
	}
	try {
		new URL(value);
	} catch {
		return { error: `The Base URL "${value}" of the Content Moderation API credential is not a valid URL` };
	}
	return { url: value.replace(/\/+$/, '') };
}

export function pathSegment(value: string): string {
	return encodeURIComponent(value);
}
