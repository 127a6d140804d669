import { describe, expect, it } from 'vitest';
import { isHiddenPage } from './modules-api';

describe('isHiddenPage', () => {
  const hidden = ['/admin/timetable', '/admin/terms'];

  it('hides a page of a module that is off and the pages under it', () => {
    expect(isHiddenPage('/admin/timetable', hidden)).toBe(true);
    expect(isHiddenPage('/admin/terms/4/classes', hidden)).toBe(true);
  });

  it('keeps every other page, including one whose name only starts the same', () => {
    expect(isHiddenPage('/admin/dashboard', hidden)).toBe(false);
    expect(isHiddenPage('/admin/terms-of-use', hidden)).toBe(false);
    expect(isHiddenPage('/admin/timetable', [])).toBe(false);
  });
});
