// A Stryker ignorer: the editor's text in node and credential descriptions (what a panel shows a person) is not
// mutated. Its words are read by people, not by code; a test that pinned every sentence would only copy it.
// Parameter names, option values, defaults and types stay mutated: the nodes' code reads those.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** Keys whose value is text for a person in an n8n node or credential description. */
const TEXT_KEYS = new Set(['displayName', 'description', 'placeholder', 'hint', 'action', 'subtitle', 'eventTriggerDescription']);
const REASON = "The editor's text in a node or credential description (docs/testing.md, Mutation testing)";

const keyName = (property) =>
	property.key.type === 'Identifier' ? property.key.name : property.key.type === 'StringLiteral' ? property.key.value : undefined;

/** An object literal n8n reads as a description: a node, a property, an option (`name` and `value`). */
function isDescriptionObject(object) {
	const keys = new Set(object.properties.filter((p) => p.type === 'ObjectProperty').map(keyName));
	return keys.has('displayName') || (keys.has('name') && (keys.has('value') || keys.has('type')));
}

const isText = (path) => path.isStringLiteral() || path.isTemplateLiteral() || path.isBinaryExpression({ operator: '+' });

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'editorText', {
		shouldIgnore(path) {
			if (!isText(path) || !path.parentPath?.isObjectProperty() || path.parentPath.node.value !== path.node) return undefined;
			const key = keyName(path.parentPath.node);
			const object = path.parentPath.parentPath;
			if (!object?.isObjectExpression() || !isDescriptionObject(object.node)) return undefined;
			const optionName = key === 'name' && object.node.properties.some((p) => p.type === 'ObjectProperty' && keyName(p) === 'value');
			return TEXT_KEYS.has(key) || optionName ? REASON : undefined;
		},
	}),
];
