import { NativeSelect } from '@mantine/core';
import { MAX_UNIFORM_QUANTITY, type MyUniformOrders } from '@tumble/contracts/uniform-orders';
import { useState } from 'react';
import { formatMoney } from '../../admin/format';

type Catalogue = MyUniformOrders['types'];

/** What one uniform line is being chosen: child, type, size and quantity, and what they point at. */
export function useUniformChoice(
  types: Catalogue,
  initial: { childId?: number | null; typeId?: number | null } = {},
) {
  const [childId, setChildId] = useState<number | null>(initial.childId ?? null);
  const [typeId, setTypeId] = useState<number | null>(initial.typeId ?? null);
  const [sizeId, setSizeId] = useState<number | null>(null);
  const [quantity, setQuantity] = useState(1);
  const type = types.find((t) => t.id === typeId) ?? null;
  const size = type?.sizes.find((s) => s.id === sizeId) ?? null;
  return { childId, setChildId, typeId, setTypeId, sizeId, setSizeId, quantity, setQuantity, type, size };
}

export type UniformChoice = ReturnType<typeof useUniformChoice>;

const idOf = (value: string) => (value ? Number(value) : null);
const asValue = (id: number | null) => (id === null ? '' : String(id));

/**
 * Child, Uniform (with its price), Size (with what is in stock; an empty size cannot be picked) and
 * Quantity (never more than the stock): the parent's order form and the front desk's share them.
 */
export function UniformChoiceFields({
  kids,
  types,
  choice,
}: {
  kids: { id: number; name: string }[];
  types: Catalogue;
  choice: UniformChoice;
}) {
  const most = Math.max(1, Math.min(MAX_UNIFORM_QUANTITY, choice.size?.stock ?? MAX_UNIFORM_QUANTITY));
  return (
    <>
      <NativeSelect
        label="Child"
        data={[
          { value: '', label: 'Choose a child' },
          ...kids.map((c) => ({ value: String(c.id), label: c.name })),
        ]}
        value={asValue(choice.childId)}
        onChange={(e) => choice.setChildId(idOf(e.currentTarget.value))}
      />
      <NativeSelect
        label="Uniform"
        data={[
          { value: '', label: 'Choose a uniform' },
          ...types.map((t) => ({ value: String(t.id), label: `${t.name} (${formatMoney(t.price)})` })),
        ]}
        value={asValue(choice.typeId)}
        onChange={(e) => {
          choice.setTypeId(idOf(e.currentTarget.value));
          choice.setSizeId(null);
        }}
      />
      <NativeSelect
        label="Size"
        disabled={choice.type === null}
        data={[
          { value: '', label: 'Choose a size' },
          ...(choice.type?.sizes ?? []).map((s) => ({
            value: String(s.id),
            label: s.stock > 0 ? `${s.name} (${s.stock} in stock)` : `${s.name} (out of stock)`,
            disabled: s.stock === 0,
          })),
        ]}
        value={asValue(choice.sizeId)}
        onChange={(e) => {
          choice.setSizeId(idOf(e.currentTarget.value));
          choice.setQuantity(1);
        }}
      />
      <NativeSelect
        label="Quantity"
        data={Array.from({ length: most }, (_, i) => String(i + 1))}
        value={String(choice.quantity)}
        onChange={(e) => choice.setQuantity(Number(e.currentTarget.value))}
      />
    </>
  );
}
