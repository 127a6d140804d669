import type { AppDeps } from '../../platform/deps.ts';
import { AppError } from '../../platform/errors.ts';
import { addOperator, listOperators, removeOperator } from '../accounts/companies.service.ts';

export const OPERATOR_USAGE = [
  'usage: npm run operator -- add <email> ["Full name"]',
  '       npm run operator -- list',
  '       npm run operator -- remove <email>',
].join('\n');

/**
 * `npm run operator -- add|list|remove`: the installation's operator accounts. Returns the lines
 * to print and the exit code; operators.cli.ts opens the database and prints them.
 */
export async function runOperatorCommand(
  deps: AppDeps,
  argv: string[],
): Promise<{ code: number; lines: string[] }> {
  const [command, email, ...name] = argv;
  try {
    if (command === 'add' && email) {
      const added = await addOperator(deps, email, name.join(' '));
      return {
        code: 0,
        lines: [
          `operator ${added.email} added; an invitation is in the outbox (mailed when SMTP is set).`,
          `To choose a password, open: ${added.link}`,
          'Then sign in at /admin/login.',
        ],
      };
    }
    if (command === 'list' && !email) {
      const operators = await listOperators(deps.database.db);
      if (operators.length === 0)
        return { code: 0, lines: ['no operators yet: npm run operator -- add <email>'] };
      return { code: 0, lines: operators.map((o) => `${o.email}\t${o.fullName}\t${o.status}`) };
    }
    if (command === 'remove' && email) {
      const removed = await removeOperator(deps.database.db, email);
      return removed
        ? { code: 0, lines: [`operator ${email} removed: disabled and signed out.`] }
        : { code: 1, lines: [`no operator with the email ${email}`] };
    }
  } catch (error) {
    if (error instanceof AppError) return { code: 1, lines: [error.message] };
    throw error;
  }
  return { code: 2, lines: [OPERATOR_USAGE] };
}
