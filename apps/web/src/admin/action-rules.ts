import { messages } from '@tumble/contracts/messages';
import type { ActionMeta, SelectionRule } from '@tumble/contracts/resources';

/**
 * SPEC.md point 8's row-selection rules, checked before anything is sent (the server checks them
 * too): 'many' needs at least one row, 'one' exactly one.
 */
export function selectionError(rule: SelectionRule, count: number): string | null {
  if (rule === 'many' && count === 0) return messages.selectAtLeastOne;
  if (rule === 'one' && count === 0) return messages.selectOne;
  if (rule === 'one' && count > 1) return messages.onlyOneRecord;
  return null;
}

/** Where an action was started: the bulk bar over the list, or one row's own link or button. */
export type ActionOrigin = 'bulk' | 'row';

/**
 * The question asked before an action runs (SPEC.md point 8): the bulk bar asks 'Are you sure you
 * want to perform the selected action?', a row's link asks 'Are you sure to {action}?'. An action
 * whose definition has no confirmation text (null) runs without asking.
 */
export function confirmationFor(action: ActionMeta, origin: ActionOrigin): string | null {
  if (action.confirm === null) return null;
  return origin === 'bulk' ? messages.confirmSelectedAction : messages.confirmAction(action.confirm);
}
