import * as assert from 'node:assert/strict';
import { inertNotificationText, NOTIFICATION_LINK } from '../../../src/core/common/notificationText';

function links(text: string): string[] {
  return [...text.matchAll(NOTIFICATION_LINK)].map((match) => match[2] ?? '');
}

describe('inertNotificationText', () => {
  it('leaves no command, web or file link in server text that a notification would make clickable', () => {
    const hostile = [
      'https://evil.example/x[Retry](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D)',
      '[a](https://evil.example) [b](file:///etc/passwd "title") [c](COMMAND:x)',
      '[x](command:y)[z](https://a.b)',
    ];
    for (const text of hostile) {
      assert.notDeepEqual(links(text), [], `the pattern finds a link in ${text}`);
      assert.deepEqual(links(inertNotificationText(text)), [], text);
    }
  });

  it('changes nothing that reads differently: plain text and URLs stay as they were, apart from the invisible break', () => {
    assert.equal(inertNotificationText('Fetching https://api.example/machines/1?x=(y)'), 'Fetching https://api.example/machines/1?x=(y)');
    assert.equal(inertNotificationText('a](b').replace(/\u200b/g, ''), 'a](b');
  });
});

describe('displayText and inertNotificationText, exactly', () => {
  it('shows each control and bidi-control character as "\ufffd", and keeps the rest', () => {
    assert.equal(inertNotificationText('a\u0007b\u202ec'), 'a\ufffdb\ufffdc');
  });

  it('puts an invisible break inside "](" and "$(" and removes nothing', () => {
    assert.equal(inertNotificationText('[x](y) $(z)'), '[x]\u200b(y) $\u200b(z)');
  });
});
