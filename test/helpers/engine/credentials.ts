/** Credentials helper: stored credentials by type, `authenticate` applied for real. */
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import { ICredentialsHelper, UnexpectedError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../dev/n8n/package';
import { fromPackage } from './fromPackage';

const OWN_CREDENTIAL_LOADERS: Record<string, () => ICredentialType> = {
	[CREDENTIAL_TYPE]: () =>
		new (fromPackage<ICredentialType>('credentials/ContentModerationApi.credentials.ts', 'ContentModerationApi'))(),
};


export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
		private readonly credentialTypes: Record<string, ICredentialType>,
	) {
		super();
	}

	private type(name: string): ICredentialType {
		const extra = this.credentialTypes[name];
		if (extra) return extra;
		const loader = OWN_CREDENTIAL_LOADERS[name];
		if (!loader) throw new UnexpectedError(`Unknown credential type: ${name}`);
		return loader();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** Mirrors n8n's CredentialsHelper.authenticate for function and generic authenticate. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: WorkflowType,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		const options = requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, options);
		}
		if (authenticate?.type !== 'generic') return options;

		const resolve = (value: unknown): unknown => {
			if (typeof value !== 'string' || !value.startsWith('=')) return value;
			if (!workflow || !node) {
				throw new UnexpectedError('authenticate needs workflow and node to resolve expressions');
			}
			return workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
		};
		const target = options as unknown as Record<string, IDataObject | undefined>;
		const properties = (authenticate as IAuthenticateGeneric).properties as Record<
			string,
			IDataObject
		>;
		for (const [outerKey, inner] of Object.entries(properties)) {
			for (const [key, value] of Object.entries(inner)) {
				target[outerKey] ??= {};
				target[outerKey][String(resolve(key))] = resolve(value) as IDataObject[string];
			}
		}
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new UnexpectedError('getCredentials is not available in the test harness');
	}

	/** Like n8n, fills in the credential type's property defaults for unset fields. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.credentials[type];
		if (!stored) throw new UnexpectedError(`No test credentials given for "${type}"`);
		const withDefaults: ICredentialDataDecryptedObject = {};
		for (const prop of this.type(type).properties) {
			if (prop.default !== undefined) withDefaults[prop.name] = prop.default as never;
		}
		return { ...withDefaults, ...stored };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string) {
		return this.type(type).properties;
	}
}
