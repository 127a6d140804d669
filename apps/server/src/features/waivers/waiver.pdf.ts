import { htmlToParagraphs } from '../../platform/html.ts';
import { renderPdf } from '../../platform/pdf.ts';
import { displayDate, displayInstant } from '../../platform/time.ts';
import type { signedWaivers } from './waivers.tables.ts';

const answerLabels: Record<string, string> = {
  medical: 'Medical conditions',
  allergies: 'Allergies',
  emergency_contact: 'Emergency contact',
  photo_consent: 'Photo consent',
};

/** A signed waiver as a PDF: the text as signed, the child, the answers, the signature and its evidence. */
export function signedWaiverPdf(
  signed: typeof signedWaivers.$inferSelect,
  company: { name: string; timeZone: string },
): Promise<Buffer> {
  const answers = Object.entries(signed.answers).map(([key, value]): [string, string] => [
    answerLabels[key] ?? key,
    typeof value === 'boolean' ? (value ? 'Yes' : 'No') : value,
  ]);
  return renderPdf({
    title: signed.waiverTitle,
    subtitle: `${company.name} · waiver version ${signed.waiverVersion} · signed waiver no. ${signed.id}`,
    sections: [
      { text: htmlToParagraphs(signed.bodyHtml) },
      {
        heading: 'Child',
        rows: [
          ['Name', `${signed.childFirstName} ${signed.childLastName}`],
          ['Date of birth', displayDate(signed.childDob)],
          ...answers,
        ],
      },
      {
        heading: 'Signed',
        rows: [
          ['Parent or guardian', signed.signerName],
          ['Email', signed.signerEmail ?? ''],
          ['Date', displayInstant(signed.signedAt, company.timeZone)],
          ['From address', signed.ip],
        ],
        png: signed.signaturePng,
      },
    ],
    footer: `Content hash (sha256): ${signed.contentHash}. Browser: ${signed.userAgent}`,
  });
}
