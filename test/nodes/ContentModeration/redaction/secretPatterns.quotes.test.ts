/** A JSON-escaped quote written by an HTML escaper: its backslash kept (\&quot;) or not (&quot; put in JSON). */
import { redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK, maskIn, secretPatterns } from '@package/nodes/ContentModeration/redaction/secretPatterns';

const SECRET = 'abc"defgh1';
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

test('the JSON form of a secret, HTML-escaped, is masked (\\&quot;)', () => {
	const patterns = secretPatterns([SECRET])!;
	expect(maskIn(`<p>${html(JSON.stringify(SECRET))}</p>`, patterns)).toBe(`<p>&quot;${MASK}&quot;</p>`);
});

test('a secret HTML-escaped, in a value judged through its JSON text, is masked (&quot; with no backslash)', () => {
	expect(redactValue({ page: `<p>${html(SECRET)}</p>` }, [SECRET])).toEqual({ page: `<p>${MASK}</p>` });
});

test('a backslash before another unsure character is no way of writing it: not the secret', () => {
	const patterns = secretPatterns(['abcd!efgh1', 'abcd&efgh1'])!;
	for (const text of ['abcd\\!efgh1', 'abcd\\&amp;efgh1']) expect(maskIn(text, patterns)).toBe(text);
});
