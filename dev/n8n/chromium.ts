/** Makes sure Debian's chromium is present (installs it with apt-get when missing; e2e runs as root). */
import { existsSync } from 'node:fs';
import { ensureDebianPackages } from './apt';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export async function ensureChromium(log: (l: string) => void = console.log): Promise<string> {
	await ensureDebianPackages(['chromium'], () => existsSync(CHROMIUM), log);
	return CHROMIUM;
}

if (require.main === module) {
	ensureChromium().then(
		(p) => console.log(`chromium at ${p}`),
		(e) => {
			console.error(e.message);
			process.exit(1);
		},
	);
}
