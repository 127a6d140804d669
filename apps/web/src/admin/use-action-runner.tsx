import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { ActionMeta, DispatchResponse } from '@tumble/contracts/resources';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { type ActionOrigin, confirmationFor, selectionError } from './action-rules';
import { useDispatchResourceAction } from './api/dispatch-action';
import { FieldInput } from './fields/field-input';
import { type FormField, type FormValues, initialValues, payloadOf } from './fields/form-values';
import { pageBase, type ResourceRef, referenceRef } from './resource-ref';
import { useResourceScope } from './resource-scope';

interface Feedback {
  color: 'red' | 'teal';
  message: string;
}

interface Pending {
  action: ActionMeta;
  ids: number[];
  question: string;
}

/** An action's own fields (e.g. swap-session's new session and day) as form fields. */
const actionFields = (action: ActionMeta | undefined): FormField[] =>
  (action?.fields ?? []).map((field) => ({ ...field, value: field.default ?? null }));

interface RunnerOptions {
  /** After the server accepted an action (e.g. clear the selection, leave a deleted row's page). */
  onDone?: (action: ActionMeta, response: DispatchResponse) => void;
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.communicationError;
  return messages.communicationError;
}

/**
 * Runs a resource action the way every admin screen does: check the selection rule, open a custom
 * screen or ask the confirmation question, POST dispatch, and show the server's message (or its
 * refusal). Returns `run` and the elements to render: the feedback alert and the confirm dialog.
 */
export function useActionRunner(ref: ResourceRef, options: RunnerOptions = {}) {
  const navigate = useNavigate();
  // An action field may reference a resource nested beside this one (swap-session's sessions of
  // the booking's event): on the list and on a row's page alike, its choices come from the parent.
  const { meta, parentMeta } = useResourceScope();
  const nested = (parentMeta ?? meta).children.map((c) => c.name);
  const dispatch = useDispatchResourceAction(ref);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [values, setValues] = useState<FormValues>({});

  function send(action: ActionMeta, ids: number[]) {
    setFeedback(null);
    const fields = actionFields(action);
    dispatch.mutate(
      { action: action.name, ids, values: fields.length ? payloadOf(fields, values) : {} },
      {
        onSuccess: (response) => {
          setFeedback({ color: response.success ? 'teal' : 'red', message: response.message });
          if (response.success) options.onDone?.(action, response);
        },
        onError: (error) => setFeedback({ color: 'red', message: failureText(error) }),
        onSettled: () => setPending(null),
      },
    );
  }

  function run(action: ActionMeta, ids: number[], origin: ActionOrigin) {
    const refusal = selectionError(action.selection, ids.length);
    if (refusal) {
      setFeedback({ color: 'red', message: refusal });
      return;
    }
    setFeedback(null);
    if (action.screen) {
      navigate(
        ids[0] === undefined
          ? `${pageBase(ref)}/${action.screen}`
          : `${pageBase(ref)}/${ids[0]}/${action.screen}`,
      );
      return;
    }
    const question = confirmationFor(action, origin);
    const fields = actionFields(action);
    // An action that asks for values always opens the dialog, to ask for them.
    if (question === null && fields.length === 0) send(action, ids);
    else {
      setValues(initialValues(fields));
      setPending({ action, ids, question: question ?? action.label });
    }
  }

  const feedbackAlert = feedback ? (
    <Alert
      color={feedback.color}
      role={feedback.color === 'red' ? 'alert' : 'status'}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => setFeedback(null)}
      style={{ whiteSpace: 'pre-line' }}
    >
      {feedback.message}
    </Alert>
  ) : null;

  const confirmDialog = (
    <Modal
      opened={pending !== null}
      onClose={() => (dispatch.isPending ? undefined : setPending(null))}
      title="Please confirm"
      centered
    >
      <Stack gap="lg">
        <Text>{pending?.question}</Text>
        {actionFields(pending?.action).map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={values[field.name]}
            onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
            owner={ref}
            referenceTarget={(reference) => referenceRef(reference, ref, nested)}
          />
        ))}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setPending(null)} disabled={dispatch.isPending}>
            {pending?.action.dismiss ?? 'Cancel'}
          </Button>
          <Button
            color={pending?.action.name === 'delete' ? 'red' : undefined}
            loading={dispatch.isPending}
            onClick={() => pending && send(pending.action, pending.ids)}
          >
            {pending?.action.label ?? 'OK'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );

  return {
    run,
    feedbackAlert,
    confirmDialog,
    clearFeedback: () => setFeedback(null),
    busy: dispatch.isPending,
  };
}
