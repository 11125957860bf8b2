/** The trigger panel's notices: what to do, in at most two short sentences each; why is in the README it links. */
import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';
import { noticeProblems, notices, sentences } from '@test/helpers/notices';

const shown = notices(new ContentModerationTrigger().description.properties);
const text = (name: string) => shown.find((p) => p.name === name)?.displayName ?? '';

test('two notices, each at most two short sentences', () => {
	expect(shown.map((p) => p.name)).toEqual(['notice', 'burstNotice']);
	expect(shown.flatMap(noticeProblems)).toEqual([]);
});

test('the setup notice: a Callback Secret, publish, the Production URL into Callback URL, the dashboard webhook with ?token=', () => {
	const [setUp, reviews] = sentences(text('notice'));
	expect(setUp).toMatch(/Callback Secret of 16 or more characters, publish this workflow and paste its Production URL into Callback URL of Image or Text > Moderate/);
	expect(reviews).toMatch(/^For review decisions, set the webhook in your ContentMod dashboard to the Production URL followed by \?token= and that Callback Secret/);
});

test('the burst notice names the path to take, not n8n settings a no-code user cannot act on', () => {
	expect(text('burstNotice')).toMatch(/Use n8n's Webhook node followed by Content Moderation > Callback > Receive/);
	expect(text('burstNotice')).not.toMatch(/N8N_|sandbox|timeout/i);
	expect(shown.find((p) => p.name === 'burstNotice')?.displayOptions).toBeUndefined();
});

test('a long notice is refused', () => {
	const long = { displayName: 'Do this. Then that. And this too.', name: 'n', type: 'notice' as const, default: '' };
	expect(noticeProblems(long)).toEqual(['n: 3 sentences']);
	expect(noticeProblems({ ...long, displayName: `Do ${'this and '.repeat(15)}that.` })).toEqual([expect.stringMatching(/^n: 32 words in/)]);
});

test('Events says that the account webhook also gets every deferred result, and which choice starts only for decisions', () => {
	const events = new ContentModerationTrigger().description.properties.find((p) => p.name === 'eventTypes');
	expect(events?.description).toMatch(/every deferred result to the account webhook: there, this trigger starts for each/);
	const decisionsOnly = events?.options?.find((o) => 'name' in o && o.name === 'Review Decisions Only');
	expect(decisionsOnly).toBeDefined();
	expect(events?.description).toMatch(/choose Review Decisions Only/);
});
