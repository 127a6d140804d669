import { WaiverPage } from '../waivers/waiver-page';

/**
 * /registration/waiver/?id&authhash: one waiver per child of a class enrolment purchase (id: the
 * purchase's reference), the registration form's template or the company's waiver for classes.
 * The same flow as the event and party waivers (inside a provider's website the public layout
 * keeps the iframe sized to it).
 */
export function EnrolmentWaiverPage() {
  return <WaiverPage kind="enrolment" />;
}
