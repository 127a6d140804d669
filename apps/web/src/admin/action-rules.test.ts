import { messages } from '@tumble/contracts/messages';
import type { ActionMeta } from '@tumble/contracts/resources';
import { describe, expect, it } from 'vitest';
import { confirmationFor, selectionError } from './action-rules';

describe('selectionError (SPEC.md point 8)', () => {
  it.each([
    ['many', 0, 'Please select at least one record.'],
    ['many', 1, null],
    ['many', 7, null],
    ['one', 0, 'Please select one record.'],
    ['one', 1, null],
    ['one', 2, 'You can perform this action on only one record.'],
    ['none', 0, null],
    ['none', 3, null],
  ] as const)('%s with %i selected → %s', (rule, count, expected) => {
    expect(selectionError(rule, count)).toBe(expected);
  });
});

describe('confirmationFor', () => {
  const action = (confirm: string | null): ActionMeta => ({
    name: 'x',
    label: 'X',
    selection: 'many',
    confirm,
  });

  it('asks the bulk question from the bulk bar', () => {
    expect(confirmationFor(action('delete'), 'bulk')).toBe(
      'Are you sure you want to perform the selected action?',
    );
    expect(confirmationFor(action('delete'), 'bulk')).toBe(messages.confirmSelectedAction);
  });

  it("asks 'Are you sure to {action}?' for a row's own link", () => {
    expect(confirmationFor(action('delete'), 'row')).toBe('Are you sure to delete?');
    expect(confirmationFor(action('publish the selected events'), 'row')).toBe(
      'Are you sure to publish the selected events?',
    );
  });

  it('does not ask when the action has no confirmation text', () => {
    expect(confirmationFor(action(null), 'bulk')).toBeNull();
    expect(confirmationFor(action(null), 'row')).toBeNull();
  });
});
