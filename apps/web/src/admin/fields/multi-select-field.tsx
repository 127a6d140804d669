import { MultiSelect, type MultiSelectProps, Pill } from '@mantine/core';
import { MULTI_SELECT_SHOWN } from '../format';

interface MultiSelectFieldProps extends Omit<MultiSelectProps, 'value' | 'onChange' | 'renderPill'> {
  value: string[];
  onChange: (value: string[]) => void;
}

/**
 * A multi-select whose input shows at most 3 chosen names and '+N more' for the rest (SPEC.md
 * point 9); every choice stays ticked in the dropdown and is saved.
 */
export function MultiSelectField({ value, onChange, ...props }: MultiSelectFieldProps) {
  return (
    <MultiSelect
      {...props}
      value={value}
      onChange={onChange}
      renderPill={({ option, value: item, onRemove, disabled }) => {
        const index = value.indexOf(String(item));
        if (index < MULTI_SELECT_SHOWN) {
          return (
            <Pill
              // md: the pill and its remove button are 25px tall (sm's 22px is under 24px).
              size="md"
              withRemoveButton={!disabled && !props.readOnly}
              onRemove={onRemove}
              removeButtonProps={{ 'aria-label': `Remove ${option?.label ?? String(item)}` }}
            >
              {option?.label ?? String(item)}
            </Pill>
          );
        }
        if (index === MULTI_SELECT_SHOWN)
          return <Pill size="md">{`+${value.length - MULTI_SELECT_SHOWN} more`}</Pill>;
        return null;
      }}
    />
  );
}
