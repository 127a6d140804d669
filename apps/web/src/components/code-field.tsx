import { Button, Group, TextInput } from '@mantine/core';

interface CodeFieldProps {
  label: string;
  /** The Apply button's accessible name. */
  applyLabel: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  error: string | undefined;
  onApply: () => void;
}

/**
 * A coupon or NSW voucher code with its Apply button (event and party checkout); the server's
 * invalid message shows beside it. The caller disables one code while the other has a value
 * (SPEC.md point 5: mutually exclusive).
 */
export function CodeField({ label, applyLabel, value, onChange, disabled, error, onApply }: CodeFieldProps) {
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onApply();
          }
        }}
        disabled={disabled}
        error={error}
        style={{ flex: 1 }}
        autoComplete="off"
        maxLength={40}
      />
      <Button variant="light" onClick={onApply} disabled={disabled} mt={25} aria-label={applyLabel}>
        Apply
      </Button>
    </Group>
  );
}
