import { Stack, Text, Textarea, type TextareaProps } from '@mantine/core';
import { useId } from 'react';

/** 'N characters left' (SPEC.md point 9: text areas show remaining characters). */
export function remainingText(max: number, length: number): string {
  const left = max - length;
  return `${left} ${Math.abs(left) === 1 ? 'character' : 'characters'} left`;
}

interface TextareaFieldProps extends Omit<TextareaProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** The most characters allowed; without it no counter is shown. */
  max?: number;
}

/** A text area that counts down the characters left, and stops at the limit. */
export function TextareaField({ value, onChange, max, ...props }: TextareaFieldProps) {
  const counterId = useId();
  return (
    <Stack gap={4}>
      <Textarea
        autosize
        minRows={3}
        maxRows={12}
        {...props}
        value={value}
        maxLength={max}
        aria-describedby={max !== undefined ? counterId : undefined}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {max !== undefined ? (
        <Text
          id={counterId}
          size="xs"
          c={max - value.length <= 0 ? 'red' : 'dimmed'}
          ta="right"
          aria-live="polite"
        >
          {remainingText(max, value.length)}
        </Text>
      ) : null}
    </Stack>
  );
}
