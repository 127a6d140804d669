import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RichTextView } from './rich-text-view';

function show(html: string) {
  return render(
    <MantineProvider env="test">
      <RichTextView html={html} />
    </MantineProvider>,
  ).container;
}

describe('RichTextView', () => {
  it("rebuilds the editor's markup", () => {
    const view = show('<p>Bring a <strong>hat</strong></p><ul><li>Morning</li><li>Full day</li></ul>');
    expect(view.querySelector('p strong')?.textContent).toBe('hat');
    expect(view.querySelectorAll('li')).toHaveLength(2);
  });

  it('never injects scripts, handlers or unsafe links', () => {
    const view = show(
      '<p onclick="alert(1)">Hi<img src=x onerror="alert(2)"><script>alert(3)</script>' +
        '<a href="javascript:alert(4)">bad</a> <a href="https://example.test/terms">terms</a></p>',
    );
    expect(view.querySelector('img, script, [onclick], [onerror]')).toBeNull();
    const links = view.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://example.test/terms');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(view.textContent).toContain('bad');
    expect(view.textContent).not.toContain('alert(3)');
  });
});
