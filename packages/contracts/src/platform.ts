import { z } from 'zod';

/** The platform side (issue 18): a company's modules, its plan and subscription. */

/** GET /api/v1/modules: what the signed-in user's company has; pages under `hidden_pages` answer not found. */
export const enabledModulesResponse = z.object({
  enabled: z.array(z.string()),
  hidden_pages: z.array(z.string()),
});
export type EnabledModulesResponse = z.infer<typeof enabledModulesResponse>;

export const moduleRow = z.object({
  key: z.string(),
  label: z.string(),
  description: z.string(),
  /** The company's plan includes it (every module without a plan). */
  in_plan: z.boolean(),
  enabled: z.boolean(),
});
/** GET /api/v1/admin/modules */
export const modulesResponse = z.object({ plan_name: z.string().nullable(), modules: z.array(moduleRow) });
export type ModulesResponse = z.infer<typeof modulesResponse>;
/** POST /api/v1/admin/modules */
export const moduleToggle = z.object({ key: z.string().min(1).max(50), enabled: z.boolean() });

export const platformMessages = {
  moduleNotInPlan:
    'This module is not part of your plan. Choose a plan that includes it on the Subscription page.',
  unknownModule: 'There is no such module.',
  unknownPlan: 'There is no such plan.',
  /** {limit}: "100 children"; {plan}: the plan to move to, or "a larger plan". */
  overLimit: 'Your plan allows {limit}. To add more, move to {plan} on the Subscription page.',
} as const;

export const planOption = z.object({
  id: z.number(),
  name: z.string(),
  monthly_price: z.number(),
  trial_days: z.number(),
  max_children: z.number().nullable(),
  max_staff: z.number().nullable(),
  modules: z.array(z.string()),
});
export type PlanOption = z.infer<typeof planOption>;

export const usageLimit = z.object({
  /** "children" or "staff users". */
  what: z.string(),
  used: z.number(),
  limit: z.number().nullable(),
});

/** GET /api/v1/admin/subscription */
export const subscriptionResponse = z.object({
  current: z
    .object({
      plan_id: z.number(),
      plan_name: z.string(),
      status: z.enum(['trialing', 'active', 'past_due', 'cancelled']),
      /** YYYY-MM-DD in the company's time zone. */
      trial_ends_on: z.string().nullable(),
    })
    .nullable(),
  plans: z.array(planOption),
  usage: z.array(usageLimit),
  /** Set when the company is over a limit of its plan: what to do. */
  over_limit: z.string().nullable(),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;

/** POST /api/v1/admin/subscription: pick a plan; a `checkout_url` means finish at the provider. */
export const choosePlan = z.object({ plan_id: z.number().int().positive().max(2_147_483_647) });
export const choosePlanResponse = z.object({ message: z.string(), checkout_url: z.string().nullable() });
export type ChoosePlanResponse = z.infer<typeof choosePlanResponse>;
