import { Alert, Button, Card, Group, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import type { FormDefinition } from '@tumble/contracts/resources';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { type FieldErrors, fieldErrorsFromForm, formErrorSummary } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { safeRedirect } from '../../components/safe-redirect';
import { useFormDefinition } from '../api/get-form';
import { useResourceRecord } from '../api/get-record';
import { useSaveResourceRecord } from '../api/save-record';
import { FieldInput } from '../fields/field-input';
import { type FormField, type FormValues, initialValues, isShown, payloadOf } from '../fields/form-values';
import { ResourceHeader, useCrumbs } from '../resource-header';
import { pageBase, referenceRef } from '../resource-ref';
import { canEditRows, ResourceScope, recordTitle, ScreenProblem, useResourceScope } from '../resource-scope';
import { RichTextView } from '../rich-text-view';

/** Fields that need the whole width: long text, rich text, several choices. */
const WIDE = new Set(['textarea', 'richtext', 'multiselect', 'file', 'image']);

/** The row's title as the edit form shows it (its title field's stored value). */
function formTitle(titleField: string, definition: FormDefinition | undefined): string {
  const value = definition?.fields.find((f) => f.name === titleField)?.value;
  return typeof value === 'string' ? value : '';
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.communicationError;
  return messages.communicationError;
}

interface FormBodyProps {
  definition: FormDefinition;
  labels?: Record<string, string>;
  cancelTo: string;
}

/**
 * The generated form: fields from the definition; on submit, the generated form response decides
 * (SPEC.md point 5): invalid → error.html_message at the top and each field in error.element
 * marked; valid → info as a notification and on to `redirect`.
 */
export function GeneratedForm({ definition, labels, cancelTo }: FormBodyProps) {
  const { ref, id, meta, parentMeta } = useResourceScope();
  const navigate = useNavigate();
  const save = useSaveResourceRecord(ref, id);
  const [values, setValues] = useState<FormValues>(() => initialValues(definition.fields));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [summary, setSummary] = useState<string[]>([]);
  const nested = (parentMeta ?? meta).children.map((c) => c.name);

  function accept(response: FormResponse) {
    notifications.show({
      color: 'teal',
      title: response.info?.title ?? 'Saved',
      message: response.info?.message ?? `The ${meta.singular.toLowerCase()} has been saved.`,
    });
    navigate(safeRedirect(response.redirect) ?? pageBase(ref));
  }

  function reject(response: FormResponse) {
    const errors = fieldErrorsFromForm(response);
    const known = new Set(definition.fields.map((f) => f.name));
    // Messages about something that is not a field of this form still need to be seen.
    const loose = (response.error?.element ?? [])
      .filter((e) => !known.has(e.name))
      .flatMap((e) => e.messages);
    const top = formErrorSummary(response);
    setFieldErrors(errors);
    setSummary([...(top ? [top] : []), ...loose]);
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSummary([]);
    save.mutate(payloadOf(definition.fields, values), {
      onSuccess: (response) => (response.valid ? accept(response) : reject(response)),
    });
  }

  function set(field: FormField, value: unknown) {
    setValues((v) => ({ ...v, [field.name]: value }));
    if (fieldErrors[field.name]) setFieldErrors(({ [field.name]: _gone, ...rest }) => rest);
  }

  return (
    <form onSubmit={submit} noValidate aria-label={definition.title}>
      <Stack gap="md">
        {save.isError ? (
          <Alert color="red" role="alert">
            {failureText(save.error)}
          </Alert>
        ) : null}
        {summary.length > 0 ? (
          <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }} data-testid="form-summary">
            {summary.map((message) => (
              <div key={message}>
                <RichTextView html={message} />
              </div>
            ))}
          </Alert>
        ) : null}
        <Card>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            {definition.fields
              .filter((field) => isShown(field, values))
              .map((field) => (
                <div key={field.name} style={WIDE.has(field.type) ? { gridColumn: '1 / -1' } : undefined}>
                  <FieldInput
                    field={field}
                    value={values[field.name]}
                    onChange={(value) => set(field, value)}
                    error={fieldErrors[field.name]}
                    owner={ref}
                    referenceTarget={(reference) => referenceRef(reference, ref, nested)}
                    labels={labels}
                  />
                </div>
              ))}
          </SimpleGrid>
        </Card>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={cancelTo} variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function FormScreen() {
  const { ref, id, meta } = useResourceScope();
  const definition = useFormDefinition(ref, id);
  const hasReferences = meta.fields.some((f) => f.type === 'reference');
  // Edit forms name the rows their references point at (the definition carries only ids).
  const record = useResourceRecord(hasReferences && id !== null ? ref : null, id);
  const listPath = pageBase(ref);
  const title = definition.data?.title ?? (id === null ? `Add ${meta.singular}` : `Edit ${meta.singular}`);
  const crumbs = useCrumbs(
    ...(id !== null
      ? [
          {
            label: formTitle(meta.titleField, definition.data) || recordTitle(meta, record.data) || `#${id}`,
            to: `${listPath}/${id}`,
          },
        ]
      : []),
    { label: id === null ? 'Add' : 'Edit' },
  );

  if (definition.isError) {
    return (
      <>
        <ResourceHeader title={title} crumbs={crumbs} />
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
        <Group>
          <Button component={Link} to={listPath} variant="default">
            Back to {meta.label.toLowerCase()}
          </Button>
        </Group>
      </>
    );
  }
  if (!definition.data || (hasReferences && id !== null && record.isPending)) return <PageLoader />;
  return (
    <>
      <ResourceHeader title={title} crumbs={crumbs} />
      <GeneratedForm
        definition={definition.data}
        labels={record.data?._labels}
        cancelTo={id === null ? listPath : `${listPath}/${id}`}
      />
    </>
  );
}

/** /admin/:resource/add and /admin/:resource/:id/edit (and their nested forms). */
export function ResourceFormPage() {
  return (
    <ResourceScope>
      <FormGate />
    </ResourceScope>
  );
}

function FormGate() {
  const { meta, id } = useResourceScope();
  if (id === null ? !meta.canCreate : !canEditRows(meta)) {
    return (
      <ScreenProblem
        title={meta.label}
        message={`You cannot ${id === null ? 'add' : 'edit'} ${meta.label.toLowerCase()}.`}
        back="/admin/dashboard"
      />
    );
  }
  return <FormScreen />;
}
