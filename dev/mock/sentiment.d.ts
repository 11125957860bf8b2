// The `sentiment` package ships no types; this covers the part the mock uses.
declare module 'sentiment' {
	interface AnalysisResult {
		score: number;
		comparative: number;
		tokens: string[];
		words: string[];
		positive: string[];
		negative: string[];
	}
	class Sentiment {
		analyze(phrase: string): AnalysisResult;
	}
	export = Sentiment;
}
