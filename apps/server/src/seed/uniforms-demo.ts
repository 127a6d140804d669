import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { uniformSizes, uniformTypes } from '../features/uniforms/uniforms.tables.ts';
import type { DemoScope } from './demo-scope.ts';

/**
 * A demo company's uniforms: a club leotard (card only) and a club shirt (may go on an invoice),
 * each in a few sizes with stock on the shelf. Once: a type already there is left as staff left it.
 */
export async function seedUniformsDemo(db: Db, { tenant }: DemoScope): Promise<void> {
  const types = [
    {
      name: 'Club leotard',
      price: 6500,
      invoiceAllowed: false,
      sizes: [
        ['Child 6', 8],
        ['Child 8', 10],
        ['Child 10', 6],
        ['Child 12', 0],
      ],
    },
    {
      name: 'Club shirt',
      price: 3000,
      invoiceAllowed: true,
      sizes: [
        ['Child S', 12],
        ['Child M', 12],
        ['Child L', 4],
      ],
    },
  ] as const;
  await db.transaction(async (tx) => {
    for (const type of types) {
      const [found] = await tx
        .select({ id: uniformTypes.id })
        .from(uniformTypes)
        .where(tenant.where(uniformTypes, eq(uniformTypes.name, type.name)));
      if (found) continue;
      const [row] = await tx
        .insert(uniformTypes)
        .values(tenant.values({ name: type.name, price: type.price, invoiceAllowed: type.invoiceAllowed }))
        .returning({ id: uniformTypes.id });
      await tx
        .insert(uniformSizes)
        .values(type.sizes.map(([name, stock]) => tenant.values({ uniformTypeId: row!.id, name, stock })));
    }
  });
}
