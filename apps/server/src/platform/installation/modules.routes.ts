import {
  enabledModulesResponse,
  type ModulesResponse,
  modulesResponse,
  moduleToggle,
  platformMessages,
} from '@tumble/contracts/platform';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { companies } from '../../features/accounts/accounts.tables.ts';
import { recordAudit } from '../audit/audit.ts';
import { requireAuth } from '../auth.ts';
import { BadRequestError } from '../errors.ts';
import {
  enabledModules,
  hiddenPages,
  isModuleKey,
  moduleCatalogue,
  moduleSettings,
  modulesOf,
} from '../modules.ts';
import type { Tenant } from '../tenancy.ts';
import { currentPlanName } from './subscriptions.service.ts';

const tags = ['platform'];

/** Every module of the catalogue with whether the plan includes it and whether it is on. */
async function moduleRows(db: Db, tenant: Tenant): Promise<ModulesResponse> {
  const { planModules, disabled } = await moduleSettings(db, tenant);
  const enabled = modulesOf(planModules, disabled);
  return {
    plan_name: await currentPlanName(db, tenant),
    modules: moduleCatalogue.map((m) => ({
      key: m.key,
      label: m.label,
      description: m.description,
      in_plan: planModules === null || planModules.includes(m.key),
      enabled: enabled.has(m.key),
    })),
  };
}

/**
 * A company's modules (SPEC modules): what the signed-in user's company has, and the company
 * admin turning modules on and off within the plan (audited).
 */
export const modulesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/v1/modules',
    { schema: { tags, response: { 200: enabledModulesResponse } }, config: { access: 'signed-in' } },
    async (request) => {
      const enabled = await enabledModules(db, requireAuth(request).tenant);
      return { enabled: [...enabled], hidden_pages: hiddenPages(enabled) };
    },
  );

  app.get(
    '/api/v1/admin/modules',
    { schema: { tags, response: { 200: modulesResponse } }, config: { access: 'company.manage' } },
    async (request) => moduleRows(db, requireAuth(request).tenant),
  );

  app.post(
    '/api/v1/admin/modules',
    {
      schema: { tags, body: moduleToggle, response: { 200: modulesResponse } },
      config: { access: 'company.manage' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { key, enabled } = request.body;
      if (!isModuleKey(key)) throw new BadRequestError(platformMessages.unknownModule);
      await db.transaction(async (tx) => {
        // Locks the company row: two admins toggling at once each keep the other's change.
        const [company] = await tx
          .select({ disabled: companies.disabledModules })
          .from(companies)
          .where(eq(companies.id, auth.tenant.companyId))
          .for('update');
        const { planModules } = await moduleSettings(tx, auth.tenant);
        if (enabled && planModules !== null && !planModules.includes(key))
          throw new BadRequestError(platformMessages.moduleNotInPlan);
        const before = company?.disabled ?? [];
        const after = enabled ? before.filter((k) => k !== key) : [...new Set([...before, key])];
        if (after.join() === before.join()) return;
        await tx
          .update(companies)
          .set({ disabledModules: after })
          .where(eq(companies.id, auth.tenant.companyId));
        await recordAudit(tx, auth, {
          action: enabled ? 'module.enable' : 'module.disable',
          entity: 'company',
          entityId: auth.tenant.companyId,
          before: { disabled_modules: before.join(', ') },
          after: { disabled_modules: after.join(', ') },
        });
      });
      return moduleRows(db, auth.tenant);
    },
  );
};
