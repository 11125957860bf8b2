// The official flat config of @n8n/node-cli: eslint-plugin-n8n-nodes-base (community, credentials, nodes)
// plus @n8n/eslint-plugin-community-nodes recommended, the rules n8n applies to community packages.
import { config } from '@n8n/node-cli/eslint';

export default config;
