/** Replaces every occurrence of each secret; applied to anything that may reach an error or output. */
export function redact(text: string, secrets: readonly unknown[]): string {
	let out = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length > 0) out = out.split(secret).join('***');
	}
	return out;
}
