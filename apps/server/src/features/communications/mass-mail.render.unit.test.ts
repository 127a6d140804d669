import { describe, expect, it } from 'vitest';
import { joinNames } from '../students/audience-reads.service.ts';
import {
  type FamilyValues,
  fillHtml,
  fillText,
  firstNameOf,
  mailText,
  unsubscribeFooter,
} from './mass-mail.render.ts';

const values: FamilyValues = {
  parent_first_name: 'Sophie',
  parent_name: 'Sophie Chen',
  child_first_name: 'Olivia and Leo',
  class: 'Kinder Gym Wednesday',
  term: 'Term 4',
  company: 'Bounce <Gym> & Co',
};

describe('mass mail rendering', () => {
  it('fills every placeholder and leaves unknown ones as written', () => {
    expect(
      fillText(
        '{parent_first_name} {parent_name} {child_first_name} {class} {term} {company} {other}',
        values,
      ),
    ).toBe('Sophie Sophie Chen Olivia and Leo Kinder Gym Wednesday Term 4 Bounce <Gym> & Co {other}');
  });

  it('escapes the values it puts into HTML', () => {
    expect(fillHtml('<p>{company}</p>', values)).toBe('<p>Bounce &lt;Gym&gt; &amp; Co</p>');
  });

  it('keeps paragraphs, list items and links in the text part', () => {
    const html =
      '<p>Hi &amp; welcome</p><ul><li>One</li><li>Two</li></ul><p><a href="https://x.test/a">the form</a></p>';
    expect(mailText(html)).toBe('Hi & welcome\n- One\n- Two\nthe form (https://x.test/a)');
    expect(mailText(unsubscribeFooter('Bounce', 'http://t.test/unsubscribe/abc'))).toContain(
      'Unsubscribe (http://t.test/unsubscribe/abc) from marketing emails.',
    );
  });

  it("joins children's names as people say them, and takes a first name", () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['Mia'])).toBe('Mia');
    expect(joinNames(['Mia', 'Leo'])).toBe('Mia and Leo');
    expect(joinNames(['Mia', 'Leo', 'Ava'])).toBe('Mia, Leo and Ava');
    expect(firstNameOf('  Sophie   Chen ')).toBe('Sophie');
  });
});
