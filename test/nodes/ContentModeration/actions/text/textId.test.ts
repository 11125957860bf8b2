/** The Text ID field Text > Get and Text > Delete share (textId.ts). */
import { textIdProperty } from '@package/nodes/ContentModeration/actions/text/textId';

it('is a required text field named textId, empty by default', () => {
	expect(textIdProperty).toMatchObject({ name: 'textId', type: 'string', default: '', required: true });
});
