import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormAlerts } from './form-alerts';
import { formErrorSummary } from './form-errors';

const shown = (html: string) => {
  const summary = formErrorSummary({ valid: false, error: { html_message: html, element: [] } });
  const { getByTestId } = render(
    <MantineProvider env="test">
      <FormAlerts summary={summary} />
    </MantineProvider>,
  );
  return getByTestId('form-summary');
};

describe('html_message above a form (SPEC.md point 5)', () => {
  it('shows the message as HTML: paragraphs, emphasis, lists and links stay', () => {
    const alert = shown(
      '<p>Please <strong>correct</strong> the errors below.</p><ul><li>Name</li></ul><a href="/admin/login">Sign in</a>',
    );
    expect(alert.querySelector('strong')?.textContent).toBe('correct');
    expect(alert.querySelector('p')?.textContent).toBe('Please correct the errors below.');
    expect(alert.querySelector('li')?.textContent).toBe('Name');
    expect(alert.querySelector('a')?.getAttribute('href')).toBe(`${window.location.origin}/admin/login`);
    expect(alert.textContent).not.toContain('<strong>');
  });

  it('runs nothing: scripts, handlers, styles and javascript: links are dropped', () => {
    const alert = shown(
      'Hi <img src=x onerror="alert(1)"><script>alert(2)</script><b onclick="alert(3)" style="color:red">bold</b> <a href="javascript:alert(4)">x</a>',
    );
    expect(alert.querySelector('img, script, [onclick], [onerror], [style]')).toBeNull();
    expect(alert.querySelector('b')?.textContent).toBe('bold');
    expect(alert.querySelector('a')).toBeNull();
    expect(alert.textContent).toBe('Hi bold x');
  });
});
