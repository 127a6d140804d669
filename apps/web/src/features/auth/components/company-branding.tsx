import { Group, Skeleton } from '@mantine/core';
import { useAcl } from '../../../api/acl';
import { CompanyBrand } from '../../../components/company-brand';

/** The company's logo and name on parent pages, from GET /rest/acl?authhash=… (public branding). */
export function CompanyBranding({ authhash }: { authhash: string | undefined }) {
  const acl = useAcl(authhash, { enabled: Boolean(authhash) });
  if (!authhash || acl.isError) return null;
  if (acl.isPending) {
    return (
      <Group justify="center" gap="sm">
        <Skeleton height={64} width={64} radius="md" />
        <Skeleton height={20} width={160} />
      </Group>
    );
  }
  return <CompanyBrand logo={acl.data.meta.logo} name={acl.data.meta.company_name} size="lg" />;
}
