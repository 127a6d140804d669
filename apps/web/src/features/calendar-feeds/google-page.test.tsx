import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { CreatedFeedResponse, StaffFeedsResponse } from '@tumble/contracts/calendar-feeds';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const path = '/api/v1/admin/integrations/google/feeds';
const made = '2030-01-01T00:00:00.000Z';

describe('Google Calendar page', () => {
  it("shows each feed's state, makes a coach's feed and shows its URL once with Google's subscribe link", async () => {
    let feeds: StaffFeedsResponse = {
      company: { id: 1, created_at: made, last_fetched_at: null },
      coaches: [
        { coach_id: 7, name: 'Casey Coach', feed: null },
        { coach_id: 8, name: 'Sam Rivera', feed: null },
      ],
    };
    const bodies: unknown[] = [];
    const url = 'https://app.example.com/feeds/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG.ics';
    const created: CreatedFeedResponse = {
      feed: { id: 2, created_at: made, last_fetched_at: null },
      url,
      webcal_url: url.replace('https://', 'webcal://'),
      google_url: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(url.replace('https://', 'webcal://'))}`,
    };
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      [`GET ${path}`]: () => json(feeds),
      [`POST ${path}`]: (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        feeds = {
          ...feeds,
          coaches: feeds.coaches.map((c) => (c.coach_id === 7 ? { ...c, feed: created.feed } : c)),
        };
        return json(created);
      },
    });
    api.setToken('tok');
    renderApp('/admin/integrations/google');

    await screen.findByRole('heading', { level: 1, name: 'Google Calendar' }, { timeout: 10_000 });
    expect(await screen.findByText(/Not fetched by a calendar yet\./)).toBeTruthy();
    expect(screen.getAllByText('No feed yet.')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Regenerate URL: Company timetable' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create feed URL: Casey Coach' }));
    await waitFor(() => expect(bodies).toEqual([{ kind: 'coach', coach_id: 7 }]));
    expect(await screen.findByText(url)).toBeTruthy();
    expect(screen.getByText('Casey Coach: your new feed URL')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Subscribe in Google Calendar' }).getAttribute('href')).toBe(
      created.google_url,
    );
    expect(screen.getByRole('button', { name: 'Copy URL' })).toBeTruthy();
    // Sam still has none; the made coach now offers Regenerate.
    expect(await screen.findByRole('button', { name: 'Regenerate URL: Casey Coach' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create feed URL: Sam Rivera' })).toBeTruthy();
  }, 20_000);
});
