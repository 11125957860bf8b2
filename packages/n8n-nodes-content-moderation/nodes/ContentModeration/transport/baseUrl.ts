/**
 * The base URL without trailing slashes, or an error naming the credential field. A `user:password@` is
 * refused (n8n's HTTP client would send it as Basic authentication in place of the Secret Key), and a value
 * holding an `@` is never repeated in an error.
 */
export function parseBaseUrl(raw: unknown): { url: string } | { error: string } {
	const value = typeof raw === 'string' ? raw.trim() : '';
	const field = 'of the Content Moderation API credential';
	if (value === '') return { error: `The Base URL ${field} is empty` };
	const named = value.includes('@') ? `The Base URL ${field}` : `The Base URL "${value}" ${field}`;
	if (!/^https?:\/\//i.test(value)) return { error: `${named} must start with http:// or https://` };
	if (!URL.canParse(value)) return { error: `${named} is not a valid URL` };
	const url = new URL(value);
	if (url.username !== '' || url.password !== '') {
		return {
			error: `The Base URL ${field} holds a user name or password (user:password@): remove it. The node signs every request with the Secret Key, which a password in the URL would replace.`,
		};
	}
	return { url: value.replace(/\/+$/, '') };
}

/** Why `value` cannot be one path segment: encodeURIComponent leaves `.` and `..`, which URLs read as folders. */
export function segmentProblem(value: string): string | undefined {
	if (value === '') return 'is empty';
	if (value === '.' || value === '..') return 'is "." or "..", which would read another address than the one asked for';
	return undefined;
}

/** One path parameter, encoded; throws for a value that would leave its place in the path. */
export function pathSegment(value: string): string {
	const problem = segmentProblem(value);
	if (problem !== undefined) throw new Error(`A path parameter ${problem}`);
	return encodeURIComponent(value);
}
