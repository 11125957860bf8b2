/**
 * The process state in one place (helpers/processState.ts), filled through its real owners: one call
 * forgets it all, its stores run on the process's clock, and nothing in it shows a secret.
 */
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';

import { runKey, waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import { systemClock } from '@package/nodes/ContentModeration/helpers/clock';
import { PROCESS_STATE, processStore, resetProcessState, type StoreName } from '@package/nodes/ContentModeration/helpers/processState';
import { deliveries, deliveryKey } from '@package/nodes/ContentModeration/inbound/deliveries';
import { secretCache } from '@package/nodes/ContentModeration/inbound/secrets';
import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { FakeClock } from '@test/helpers/fakeClock';

const SECRET_KEY = 'sk-process-state-7d41c9';
const CALLBACK_SECRET = 'cb-process-state/9a2f5e';
const NAMES = Object.keys(PROCESS_STATE) as StoreName[];

let clock: FakeClock;
beforeEach(() => {
	clock = new FakeClock();
	jest.spyOn(systemClock, 'now').mockImplementation(clock.now);
	jest.spyOn(systemClock, 'sleep').mockImplementation(clock.sleep);
	resetProcessState();
});
afterEach(() => jest.restoreAllMocks());

/** What one busy process holds: a trigger's credential, a read under way, completions, a limiter, a waiting run. */
async function fill(): Promise<void> {
	const read = async () => ({ callbackSecret: CALLBACK_SECRET, secrets: [SECRET_KEY] });
	await secretCache.check('trigger-1', [CALLBACK_SECRET], read);
	void secretCache.check('trigger-1', ['wrong'], read);
	const started = deliveries.claim(deliveryKey(['started']));
	if (started.kind === 'held') started.commit();
	deliveries.claim(deliveryKey(['in flight']));
	limiters.limiterFor(serviceKey(`https://user:${SECRET_KEY}@moderation.example.com`, SECRET_KEY));
	waitMemory.watch(runKey('1', 'node', undefined), undefined);
	waitMemory.run(runKey('1', 'node', undefined), undefined).remember(0, 'id-1', { id: 'id-1', isSafe: true });
}

test('one call forgets everything every owner holds, as a new process would', async () => {
	await fill();
	expect(NAMES.map((name) => [name, processStore(name).size > 0])).toEqual(NAMES.map((name) => [name, true]));
	resetProcessState();
	expect(NAMES.map((name) => [name, processStore(name).size])).toEqual(NAMES.map((name) => [name, 0]));
	expect(deliveries.claim(deliveryKey(['started'])).kind).toBe('held');
});

test("the stores keep time by the process's clock: a started completion is forgotten after a day, not before", async () => {
	const key = deliveryKey(['a day']);
	const claim = deliveries.claim(key);
	if (claim.kind === 'held') claim.commit();
	await clock.advance(PROCESS_STATE.startedCompletions.ttlMs - 1);
	expect(deliveries.claim(key).kind).toBe('duplicate');
	await clock.advance(1);
	expect(deliveries.claim(key).kind).toBe('held');
});

test('nothing in it shows the Secret Key or the Callback Secret, inspected or serialized, in clear, base64 or hex', async () => {
	await fill();
	const asArrays = (_key: string, value: unknown) => (value instanceof Map ? [...value] : value);
	const stores = NAMES.map((name) => processStore(name));
	const dumps = [inspect(stores, { depth: 30, showHidden: true }), JSON.stringify(stores, asArrays)];
	for (const secret of [SECRET_KEY, CALLBACK_SECRET]) {
		const bytes = Buffer.from(secret);
		const forms = [secret, encodeURIComponent(secret), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')];
		forms.push(createHash('sha256').update(secret).digest('hex'), createHash('sha256').update(secret).digest('base64'));
		for (const dump of dumps) for (const form of forms) expect(dump).not.toContain(form);
	}
	// The dump is of the stores' contents, not empty shells.
	expect(dumps[1]).toContain('id-1');
});
