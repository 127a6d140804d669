import { eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { signedWaivers } from './waivers.tables.ts';

/**
 * A family's signed waivers keep that a waiver was signed, when, and which version, but lose the
 * child's and signer's details, the answers and the signature image.
 */
export async function eraseSignatures(
  tx: Db,
  tenant: Tenant,
  parentId: number,
  childIds: number[],
  placeholder: string,
) {
  // The immutability trigger (migration 0054) lets these columns change only inside this transaction.
  await tx.execute(sql`select set_config('tumble.erasing_family', 'on', true)`);
  await tx
    .update(signedWaivers)
    .set({
      childFirstName: 'Erased',
      childLastName: 'child',
      childDob: '1900-01-01',
      answers: {},
      signerName: placeholder,
      signerEmail: null,
      signaturePng: Buffer.alloc(0),
      ip: '',
      userAgent: '',
    })
    .where(
      tenant.where(
        signedWaivers,
        or(
          eq(signedWaivers.parentId, parentId),
          childIds.length ? inArray(signedWaivers.childId, childIds) : undefined,
        ),
      ),
    );
}
