/** The one error shape of the mock: `{"error":{"status","code","message","field"?}}` (see docs/service-interface.md). */
interface ErrorBody {
	error: { status: number; code: string; message: string; field?: string };
}

export class MockApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly field?: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	toBody(): ErrorBody {
		const error: ErrorBody['error'] = { status: this.status, code: this.code, message: this.message };
		if (this.field !== undefined) error.field = this.field;
		return { error };
	}
}

/** 400 naming the field at fault. */
export function badField(field: string, code: string, message: string): MockApiError {
	return new MockApiError(400, code, message, field);
}
