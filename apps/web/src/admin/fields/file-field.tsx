import { Anchor, Button, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { UploadIcon } from '../../components/icons';
import { uploadResourceFile } from '../api/upload-file';
import { fileName, fileUrl } from '../format';
import type { ResourceRef } from '../resource-ref';

interface FileFieldProps {
  target: ResourceRef;
  kind: 'file' | 'image';
  label: string;
  description?: string;
  required: boolean;
  error?: string;
  /** The stored file key, or null. */
  value: string | null;
  onChange: (key: string | null) => void;
}

const ACCEPT = {
  file: 'application/pdf,image/png,image/jpeg,image/gif,image/webp',
  image: 'image/png,image/jpeg,image/gif,image/webp',
};

/** Uploads a file to the resource's `/upload` and keeps its key; the current file is a link. */
export function FileField({
  target,
  kind,
  label,
  description,
  required,
  error,
  value,
  onChange,
}: FileFieldProps) {
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string>();
  const [names, setNames] = useState<Record<string, string>>({});

  async function upload(file: File | null) {
    if (!file) return;
    setUploading(true);
    setUploadError(undefined);
    try {
      const uploaded = await uploadResourceFile(target, file);
      setNames((n) => ({ ...n, [uploaded.key]: uploaded.name }));
      onChange(uploaded.key);
    } catch (e) {
      setUploadError(
        e instanceof ApiError
          ? (e.serverMessage ?? messages.communicationError)
          : messages.communicationError,
      );
    } finally {
      setUploading(false);
    }
  }

  return (
    <Input.Wrapper
      label={label}
      description={description}
      withAsterisk={required}
      error={uploadError ?? error}
    >
      <Stack gap="xs" mt={4}>
        {value ? (
          <Group gap="sm" wrap="wrap">
            {kind === 'image' ? <Image src={fileUrl(value)} alt={label} h={64} w="auto" radius="sm" /> : null}
            <Anchor href={fileUrl(value)} target="_blank" rel="noopener" size="sm">
              {names[value] ?? fileName(value)}
            </Anchor>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No file chosen
          </Text>
        )}
        <Group gap="xs">
          <FileButton onChange={(file) => void upload(file)} accept={ACCEPT[kind]}>
            {(props) => (
              <Button
                {...props}
                variant="default"
                size="xs"
                leftSection={<UploadIcon size={14} />}
                loading={uploading}
              >
                {value ? 'Replace' : 'Upload'} {kind === 'image' ? 'image' : 'file'}
              </Button>
            )}
          </FileButton>
          {value && !required ? (
            <Button variant="subtle" color="red" size="xs" onClick={() => onChange(null)}>
              Remove
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
