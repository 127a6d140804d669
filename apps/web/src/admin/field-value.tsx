import { Anchor, ColorSwatch, Group, Image, Stack, Text } from '@mantine/core';
import type { FieldMeta } from '@tumble/contracts/resources';
import { useResourceOptions } from './api/get-options';
import { displayValue, fileName, fileUrl, shortList } from './format';
import { referenceRef } from './resource-ref';
import { useResourceScope } from './resource-scope';
import { RichTextView } from './rich-text-view';

interface FieldValueProps {
  field: FieldMeta;
  value: unknown;
  labels?: Record<string, string>;
  /** 'list': one line for a table cell; 'view': the full value on the view screen. */
  mode: 'list' | 'view';
}

const EMPTY = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

/** Names of the rows a multi-select reference points at, up to 3 (SPEC.md point 9). */
function ReferenceNames({ field, ids }: { field: FieldMeta; ids: unknown[] }) {
  const { ref, parentMeta, meta } = useResourceScope();
  const nested = (parentMeta ?? meta).children.map((c) => c.name);
  const options = useResourceOptions(field.reference ? referenceRef(field.reference, ref, nested) : null);
  const names = ids.map(
    (id) => options.data?.find((o) => String(o.value) === String(id))?.label ?? `#${String(id)}`,
  );
  return <>{shortList(names)}</>;
}

/** A stored value shown to staff: money, dates, Yes/No, reference titles, links to files. */
export function FieldValue({ field, value, labels, mode }: FieldValueProps) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return EMPTY;
  }
  switch (field.type) {
    case 'file':
    case 'image': {
      const key = String(value);
      return (
        <Stack gap={4} align="flex-start">
          {field.type === 'image' && mode === 'view' ? (
            <Image src={fileUrl(key)} alt={field.label} maw={240} radius="sm" />
          ) : null}
          <Anchor href={fileUrl(key)} target="_blank" rel="noopener" size="sm">
            {fileName(key)}
          </Anchor>
        </Stack>
      );
    }
    case 'colour':
      return (
        <Group gap={6} wrap="nowrap">
          <ColorSwatch color={String(value)} size={16} />
          <Text span size="sm">
            {String(value)}
          </Text>
        </Group>
      );
    case 'multiselect':
      if (field.reference)
        return <ReferenceNames field={field} ids={Array.isArray(value) ? value : [value]} />;
      return <>{displayValue(field, value, labels)}</>;
    case 'richtext':
      if (mode === 'view') {
        return <RichTextView html={String(value)} />;
      }
      return (
        <Text span size="sm" lineClamp={1}>
          {displayValue(field, value, labels)}
        </Text>
      );
    case 'textarea':
      return mode === 'view' ? (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {String(value)}
        </Text>
      ) : (
        <Text span size="sm" lineClamp={1}>
          {String(value)}
        </Text>
      );
    default:
      return <>{displayValue(field, value, labels)}</>;
  }
}
