import { Input, Skeleton } from '@mantine/core';
import { lazy, Suspense, useId } from 'react';
import { RICH_TEXT_HEIGHT_PX } from './rich-text-height';

const RichTextEditor = lazy(() => import('./rich-text-editor'));

interface RichTextFieldProps {
  label: string;
  description?: string;
  required: boolean;
  error?: string;
  value: string;
  onChange: (html: string) => void;
}

/** A rich text field; the editor itself is a lazy chunk. */
export function RichTextField({ label, description, required, error, value, onChange }: RichTextFieldProps) {
  const id = useId();
  return (
    <Input.Wrapper
      label={label}
      description={description}
      withAsterisk={required}
      error={error}
      labelProps={{ htmlFor: id }}
    >
      <div style={{ marginTop: 4 }}>
        <Suspense fallback={<Skeleton height={RICH_TEXT_HEIGHT_PX + 44} radius="md" />}>
          <RichTextEditor id={id} value={value} onChange={onChange} label={label} invalid={Boolean(error)} />
        </Suspense>
      </div>
    </Input.Wrapper>
  );
}
