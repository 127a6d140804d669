import { Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { saveBlob } from '../../components/file-download';
import { PageLoader } from '../../components/page-loader';
import { ReportPage } from '../reports/report-page';
import { useRollDay } from './roll-api';

/** The printable roll of a day: the same sessions and children as the table, one PDF. */
function PdfButton({ date }: { date: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <Button
      variant="default"
      color={failed ? 'red' : undefined}
      onClick={() => {
        setFailed(false);
        api
          .download('/api/v1/admin/reports/daily-roll/pdf', { query: date ? { date } : {} })
          .then((pdf) => saveBlob(pdf, `daily-roll${date ? `-${date}` : ''}.pdf`))
          .catch(() => setFailed(true));
      }}
    >
      {failed ? 'PDF failed, try again' : 'Download PDF'}
    </Button>
  );
}

/** /admin/reports/daily-roll (SPEC reports/daily-roll): every class session of a day with its children and marks. */
export function DailyRollReportPage() {
  const [params, setParams] = useSearchParams();
  const missing = !params.get('date');
  // The date lives in the URL like every report filter; the first one is the company's today (its zone).
  const today = useRollDay('', missing);
  const companyToday = today.data?.date;
  useEffect(() => {
    if (missing && companyToday) setParams({ date: companyToday }, { replace: true });
  }, [missing, companyToday, setParams]);
  if (missing && !today.isError) return <PageLoader />;
  return (
    <ReportPage name="daily-roll" actions={(filters) => <PdfButton date={String(filters.date ?? '')} />} />
  );
}
