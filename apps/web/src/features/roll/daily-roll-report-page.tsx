import { Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { saveBlob } from '../../components/file-download';
import { ReportPage } from '../reports/report-page';

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

/** Today on this device's calendar: staff work in the company's zone, and the date stays editable. */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** /admin/reports/daily-roll (SPEC reports/daily-roll): every class session of a day with its children and marks. */
export function DailyRollReportPage() {
  const [params, setParams] = useSearchParams();
  const missing = !params.get('date');
  // The date lives in the URL like every report filter, so a printed day can be bookmarked.
  useEffect(() => {
    if (missing) setParams({ date: localToday() }, { replace: true });
  }, [missing, setParams]);
  return (
    <ReportPage name="daily-roll" actions={(filters) => <PdfButton date={String(filters.date ?? '')} />} />
  );
}
