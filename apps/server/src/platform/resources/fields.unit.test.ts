import { describe, expect, it } from 'vitest';
import { field, fieldSchema, isRealDate } from './fields.ts';

const parse = (def: ReturnType<typeof field.text>, value: unknown) => fieldSchema('f', def).safeParse(value);
const message = (def: ReturnType<typeof field.text>, value: unknown) => {
  const result = parse(def, value);
  return result.success ? null : result.error.issues[0]!.message;
};

describe('isRealDate', () => {
  it.each([
    ['2025-02-28', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-02-30', false],
    ['2025-13-01', false],
    ['25-01-01', false],
    ['2025-1-1', false],
  ])('%s → %s', (value, expected) => expect(isRealDate(value)).toBe(expected));
});

describe('fieldSchema', () => {
  it('required text: trims, and names the field when empty', () => {
    const def = field.text('Name', { required: true, max: 5 });
    expect(parse(def, '  Ann ').data).toBe('Ann');
    expect(message(def, '   ')).toBe('Name is required.');
    expect(message(def, undefined)).toBe('Name is required.');
    expect(message(def, 'Annabel')).toBe('Name must be at most 5 characters.');
  });

  it('optional text: empty becomes null', () => {
    expect(parse(field.text('Suburb'), '').data).toBeNull();
    expect(parse(field.text('Suburb'), undefined).data).toBeNull();
  });

  it('money: whole cents within bounds; numeric strings accepted', () => {
    const def = field.money('Price', { required: true });
    expect(parse(def, 2500).data).toBe(2500);
    expect(parse(def, '2500').data).toBe(2500);
    expect(message(def, 25.5)).toBe('Price must be a whole number of cents.');
    expect(message(def, -1)).toBe('Price must be at least 0.');
    expect(message(def, '1e400')).not.toBeNull();
    expect(message(def, '')).toBe('Price is required.');
  });

  it('number: refuses values that do not fit an integer column', () => {
    expect(message(field.number('Capacity'), 3_000_000_000)).toMatch(/at most/);
    expect(message(field.number('Capacity', { min: 1 }), 0)).toBe('Capacity must be at least 1.');
  });

  it('date: refuses impossible dates', () => {
    expect(message(field.date('Start date'), '2025-02-30')).toBe(
      'Start date must be a valid date (YYYY-MM-DD).',
    );
    expect(parse(field.date('Start date'), '2025-02-28').data).toBe('2025-02-28');
  });

  it('time and colour follow their formats', () => {
    expect(message(field.time('Starts at'), '24:00')).toBe('Starts at must be a time like 09:30.');
    expect(parse(field.time('Starts at'), '09:30').data).toBe('09:30');
    expect(message(field.colour('Colour'), 'red')).toBe('Colour must be a colour like #1e90ff.');
  });

  it('select and multiselect accept only their options, multiselect without duplicates', () => {
    const options = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ];
    expect(message(field.select('Kind', options), 'c')).toBe('Please choose a valid kind.');
    expect(parse(field.multiselect('Days', options), ['a', 'a', 'b']).data).toEqual(['a', 'b']);
    expect(message(field.multiselect('Days', options), ['a', 'z'])).toBe('Please choose valid days.');
    expect(message(field.multiselect('Days', options, { required: true }), [])).toBe('Days is required.');
  });

  it('references: positive integer ids', () => {
    expect(parse(field.reference('Venue', 'venues'), '7').data).toBe(7);
    expect(message(field.reference('Venue', 'venues'), 'x')).toBe('Please choose a valid venue.');
    expect(parse(field.references('Events', 'events'), ['3', 3, 4]).data).toEqual([3, 4]);
  });

  it('rich text is sanitized: no script, handlers or javascript: links survive', () => {
    const html =
      '<p onclick="x()">Hi<script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://a.test">ok</a></p>';
    const out = String(parse(field.richtext('Description'), html).data);
    expect(out).not.toMatch(/script|onclick|javascript:/i);
    expect(out).toContain('<a href="https://a.test" rel="noopener noreferrer" target="_blank">ok</a>');
  });

  it('booleans from forms', () => {
    const def = field.boolean('Published');
    expect(parse(def, 'true').data).toBe(true);
    expect(parse(def, undefined).data).toBe(false);
    expect(message(def, 'maybe')).toBe('Published must be yes or no.');
  });

  it('email is lower-cased and checked', () => {
    expect(parse(field.email('Email'), ' A@B.Test ').data).toBe('a@b.test');
    expect(message(field.email('Email'), 'nope')).toBe('Email must be a valid email address.');
  });
});
