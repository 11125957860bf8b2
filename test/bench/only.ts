/** Which parts of `npm run bench` to run: `--only A,B` / `--only=A,B` on the command line, else BENCH_ONLY; undefined = all. */
export function onlyParts(argv: string[], env: string | undefined): string[] | undefined {
	let text = env;
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--only' && argv[i + 1] !== undefined) text = argv[++i];
		else if (argv[i].startsWith('--only=')) text = argv[i].slice('--only='.length);
	}
	const parts = text
		?.split(',')
		.map((s) => s.trim())
		.filter((s) => s !== '');
	return parts && parts.length > 0 ? parts : undefined;
}
