import { Alert, Card, Center, Group, Loader, Pagination, Select, Stack, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { ActionMeta } from '@tumble/contracts/resources';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { useResourceList } from '../api/get-list';
import { BulkActionBar } from '../list/bulk-action-bar';
import { ListToolbar } from '../list/list-toolbar';
import { ResourceTable } from '../list/resource-table';
import { PER_PAGE_CHOICES, useListParams } from '../list/use-list-params';
import { ParentTabs, ResourceHeader, useCrumbs } from '../resource-header';
import { pageBase, parentOf } from '../resource-ref';
import { ResourceScope, recordTitle, useResourceScope } from '../resource-scope';
import { useActionRunner } from '../use-action-runner';

function ListScreen() {
  const { ref, meta, parentMeta, parentRecord } = useResourceScope();
  const params = useListParams(meta);
  const list = useResourceList(ref, params.query);
  const basePath = pageBase(ref);
  const queryKey = JSON.stringify(params.query);
  // The selection belongs to one page of one search; a new page or search starts afresh.
  const [selection, setSelection] = useState<{ key: string; ids: Set<number> }>({
    key: queryKey,
    ids: new Set(),
  });
  const selected = selection.key === queryKey ? selection.ids : new Set<number>();
  const runner = useActionRunner(ref, {
    onDone: () => setSelection({ key: queryKey, ids: new Set() }),
  });
  const deleteAction = meta.actions.find((a) => a.name === 'delete');
  const crumbs = useCrumbs();

  function select(ids: number[], on: boolean) {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setSelection({ key: queryKey, ids: next });
  }

  const total = list.data?.total ?? 0;
  // Past 10,000 rows the server stops counting ("10,000+"): the pager then offers the next page
  // while this one is full, so staff can still page beyond the count.
  const estimated = list.data?.totalIsEstimate === true;
  const shown = list.data?.data.length ?? 0;
  const pages = Math.max(
    1,
    Math.ceil(total / params.perPage),
    estimated ? params.page + (shown === params.perPage ? 1 : 0) : 0,
  );
  const first = total === 0 ? 0 : (params.page - 1) * params.perPage + 1;
  const last = estimated ? first + shown - 1 : Math.min(total, params.page * params.perPage);
  const count = (n: number) => n.toLocaleString('en-US');
  const totalLabel = estimated ? `${count(total)}+` : count(total);
  const nested = (parentMeta ?? meta).children.map((c) => c.name);
  const title =
    ref.parent && parentMeta ? `${recordTitle(parentMeta, parentRecord)}: ${meta.label}` : meta.label;

  return (
    <>
      <ResourceHeader title={title} crumbs={crumbs} />
      {ref.parent && parentMeta ? (
        <ParentTabs
          base={`${pageBase(parentOf(ref)!)}/${ref.parent.id}`}
          tabs={parentMeta.children}
          active={ref.resource}
        />
      ) : null}
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="sm">
          <BulkActionBar
            actions={meta.actions}
            selectedCount={selected.size}
            onAction={(action: ActionMeta) => runner.run(action, [...selected], 'bulk')}
            addPath={meta.canCreate ? `${basePath}/add` : null}
            addLabel={`Add ${meta.singular.toLowerCase()}`}
            busy={runner.busy}
          />
          {runner.feedbackAlert}
          <ListToolbar meta={meta} params={params} resourceRef={ref} nestedNames={nested} />
          {list.isError ? (
            <Alert color="red" role="alert">
              {list.error instanceof ApiError
                ? (list.error.serverMessage ?? messages.communicationError)
                : messages.communicationError}
            </Alert>
          ) : list.isPending ? (
            <PageLoader />
          ) : list.data.data.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">
                {params.hasCriteria
                  ? `No ${meta.label.toLowerCase()} match your search.`
                  : `No ${meta.label.toLowerCase()} yet.`}
              </Text>
            </Center>
          ) : (
            <ResourceTable
              meta={meta}
              rows={list.data.data}
              basePath={basePath}
              sort={params.sort}
              order={params.order}
              onSort={params.toggleSort}
              selected={selected}
              onSelect={select}
              deleteAction={deleteAction}
              onDelete={(id) => deleteAction && runner.run(deleteAction, [id], 'row')}
            />
          )}
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {total === 0 ? 'No rows' : `${count(first)}–${count(last)} of ${totalLabel}`}
              </Text>
              {list.isFetching && !list.isPending ? (
                <Loader size="xs" role="status" aria-label="Refreshing" />
              ) : null}
            </Group>
            <Group gap="sm" wrap="wrap">
              <Select
                aria-label="Rows per page"
                data={PER_PAGE_CHOICES.map((n) => ({ value: String(n), label: `${n} per page` }))}
                value={String(params.perPage)}
                onChange={(value) => value && params.setPerPage(Number(value))}
                allowDeselect={false}
                size="xs"
                w={130}
              />
              {pages > 1 ? (
                <Pagination
                  total={pages}
                  value={Math.min(params.page, pages)}
                  onChange={params.setPage}
                  size="sm"
                  siblings={1}
                  boundaries={1}
                />
              ) : null}
            </Group>
          </Group>
        </Stack>
      </Card>
      {runner.confirmDialog}
    </>
  );
}

/** /admin/:resource and /admin/events/:parentId/:resource: every resource's list. */
export function ResourceListPage() {
  return (
    <ResourceScope>
      <ListScreen />
    </ResourceScope>
  );
}
