/** Callback > Receive's notice: what to put before the node and what to give ContentMod, in two short sentences. */
import { description } from '@package/nodes/ContentModeration/actions/callback/receive.operation';
import { noticeProblems, notices, sentences } from '@test/helpers/notices';

test("one notice: n8n's Webhook node before Receive, its Production URL with ?token= for ContentMod", () => {
	const shown = notices(description);
	expect(shown.map((p) => p.name)).toEqual(['receiveNotice']);
	expect(shown.flatMap(noticeProblems)).toEqual([]);
	const [before, url] = sentences(shown[0].displayName);
	expect(before).toMatch(/^Put n8n's Webhook node \(HTTP Method POST, Respond Immediately\) before this node/);
	expect(url).toMatch(/Production URL followed by \?token= and the credential's Callback Secret \(16 or more characters\)/);
});
