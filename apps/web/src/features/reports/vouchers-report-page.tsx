import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { ReportPage } from './report-page';

type ClaimStatus = 'claimed' | 'reimbursed';

/**
 * /admin/reports/vouchers: the NSW vouchers report, and below it staff mark a voucher claimed from
 * Service NSW or reimbursed once it has paid (audited on the server); the report's Claim column
 * shows it, so the provider reconciles its claims.
 */
export function VouchersReportPage() {
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const mark = useMutation({
    mutationFn: (status: ClaimStatus) =>
      api.post('/api/v1/admin/reports/vouchers/claims', { code: code.trim(), status }),
    onSuccess: (_, status) => {
      setDone(`${code.trim()} marked ${status}.`);
      setCode('');
      return client.invalidateQueries({ queryKey: ['admin', 'reports', 'vouchers'] });
    },
  });
  return (
    <Stack maw={1200} w="100%" mx="auto">
      <ReportPage name="vouchers" />
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Claims
          </Title>
          <Text size="sm" c="dimmed">
            Mark a voucher claimed when you claim it from Service NSW, and reimbursed when Service NSW pays.
          </Text>
          <Group align="end" wrap="wrap">
            <TextInput
              label="Voucher"
              value={code}
              onChange={(e) => {
                setCode(e.currentTarget.value);
                setDone(null);
                mark.reset();
              }}
            />
            <Button disabled={!code.trim()} loading={mark.isPending} onClick={() => mark.mutate('claimed')}>
              Mark claimed
            </Button>
            <Button
              variant="light"
              disabled={!code.trim()}
              loading={mark.isPending}
              onClick={() => mark.mutate('reimbursed')}
            >
              Mark reimbursed
            </Button>
          </Group>
          {mark.isError && (
            <Alert color="red" role="alert">
              No voucher with this code was redeemed here.
            </Alert>
          )}
          {done && (
            <Text size="sm" role="status">
              {done}
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
