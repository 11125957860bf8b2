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

/**
 * Why `value` cannot be one path segment, or undefined when it can. encodeURIComponent leaves dots alone,
 * and URL parsers read a segment `.` or `..` as "this" or "parent" folder: `/image/..` would read the
 * base URL itself. (A `%` is encoded, so `%2e` stays a plain text.)
 */
export function segmentProblem(value: string): string | undefined {
	if (value === '') return 'is empty';
	if (value === '.' || value === '..') return 'is "." or "..", which would read another address than the one asked for';
	return undefined;
}

/** One path parameter, encoded; throws for a value that would leave its place in the path (see segmentProblem). */
export function pathSegment(value: string): string {
	const problem = segmentProblem(value);
	if (problem !== undefined) throw new Error(`A path parameter ${problem}`);
	return encodeURIComponent(value);
}
