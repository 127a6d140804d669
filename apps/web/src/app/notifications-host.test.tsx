import { notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from './providers';

afterEach(() => notifications.clean());

describe('NotificationsHost', () => {
  it('draws nothing until a page shows a notification, then shows it', async () => {
    render(
      <AppProviders env="test">
        <p>page</p>
      </AppProviders>,
    );
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();

    act(() => {
      notifications.show({ message: 'Saved the company details.' });
    });

    expect(await screen.findByText('Saved the company details.')).toBeTruthy();
  });
});
