import { Alert, Button, Card, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { eraseConfirmationWord } from '@tumble/contracts/company-data';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { eraseFamily } from './company-data-api';

/** Erasing a family on request (the parents' "Erase family" action): a reason and a typed confirmation. */
export function EraseFamilyPage() {
  const parentId = Number(useParams().id);
  const [reason, setReason] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const erase = useMutation({ mutationFn: () => eraseFamily(parentId, { reason, confirmation }) });
  const failure =
    erase.error instanceof ApiError
      ? (erase.error.serverMessage ?? messages.communicationError)
      : erase.error
        ? messages.communicationError
        : null;
  return (
    <Stack gap="md" maw={640}>
      <ResourceHeader
        title="Erase family"
        crumbs={[
          { label: 'Parents', to: '/admin/parents' },
          { label: 'Family', to: `/admin/parents/${parentId}` },
          { label: 'Erase family' },
        ]}
      />
      {erase.data ? (
        <Alert color="green" role="status" title="Family erased">
          Their personal details are gone; the family now shows as {erase.data.name}. Invoices and payments
          are kept. <Link to="/admin/parents">Back to parents</Link>
        </Alert>
      ) : (
        <Card withBorder padding="lg">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              erase.mutate();
            }}
          >
            <Stack gap="sm">
              <Text size="sm">
                The parent's name, email, phone and address, the children's names, dates of birth, medical
                notes and flags, waiver answers and signatures, and marketing consent are erased, and the
                family can no longer sign in. Invoices, payments, refunds and credit notes keep their amounts,
                numbers and dates. This cannot be undone.
              </Text>
              <Textarea
                label="Reason"
                description="Kept in the audit log with your name."
                required
                autosize
                minRows={2}
                maxLength={500}
                value={reason}
                onChange={(event) => setReason(event.currentTarget.value)}
              />
              <TextInput
                label={`Type ${eraseConfirmationWord} to confirm`}
                required
                autoComplete="off"
                value={confirmation}
                onChange={(event) => setConfirmation(event.currentTarget.value)}
              />
              {failure ? (
                <Alert color="red" role="alert">
                  {failure}
                </Alert>
              ) : null}
              <div>
                <Button
                  type="submit"
                  color="red"
                  loading={erase.isPending}
                  disabled={confirmation.trim() !== eraseConfirmationWord || reason.trim() === ''}
                >
                  Erase family
                </Button>
              </div>
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}
