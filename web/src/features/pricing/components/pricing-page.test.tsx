import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { callToAction } from '@/config/plans';
import { renderWithProviders, stubApi } from '@/test/render';
import { specLimitsTable, specSection } from '@/test/spec';

import { PricingPage } from './pricing-page';

beforeEach(() => {
  stubApi(() => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('the pricing page', () => {
  it('shows the limits table of SPEC §9 cell for cell', async () => {
    renderWithProviders(<PricingPage />);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    const expected = specLimitsTable();
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, index) => {
      const cells = within(row).getAllByRole('cell').map((cell) => cell.textContent);
      expect(within(row).getByRole('rowheader').textContent).toBe(expected[index].item);
      expect(cells).toEqual(expected[index].cells);
    });
  });

  it('shows the prices of §9 and the signed-out calls to action', async () => {
    renderWithProviders(<PricingPage />);
    const prices = specSection(9).match(/Business is (\d+) annual and (\d+) monthly.*Agency is (\d+) annual and (\d+) monthly/s)!;
    const business = (await screen.findByRole('heading', { name: 'Business' })).closest('article')!;
    expect(business.textContent).toContain(`$${prices[2]} / month`);
    expect(business.textContent).toContain(`$${prices[1]} / year`);
    const agency = screen.getByRole('heading', { name: 'Agency' }).closest('article')!;
    expect(agency.textContent).toContain(`$${prices[4]} / month`);
    expect(agency.textContent).toContain(`$${prices[3]} / year`);
    expect(within(business).getByRole('link').dataset.cta).toBe('create-account');
    expect(within(agency).getByRole('link').dataset.cta).toBe('book-demo');
    const free = screen.getByRole('heading', { name: 'Free' }).closest('article')!;
    expect(within(free).getByRole('link').dataset.cta).toBe('create-account');
  });
});

describe('calls to action', () => {
  // Parsed from "Call to action by situation: free plan: logged-out create-account, ..." in §9.
  function specCallsToAction() {
    const line = specSection(9).split('\n').find((text) => text.includes('Call to action by situation'))!;
    const table: Record<string, Record<string, string>> = {};
    for (const part of line.split(/(?=free plan:|Business plan:|Agency plan:)/)) {
      const plan = part.match(/^(free|Business|Agency) plan:/)?.[1]?.toLowerCase();
      if (!plan) continue;
      table[plan] = {};
      for (const clause of part.replace(/^[^:]+:/, '').split(/[,.]/)) {
        const words = clause.trim().split(/ /);
        const action = words.pop()!;
        const situations = words.join(' ').split(/ and /).map((s) => s.replace(/^same plan$/, 'same').trim());
        for (const situation of situations) if (situation) table[plan][situation] = action;
      }
    }
    return table;
  }

  it('follows the table of §9 for every plan and situation', () => {
    const table = specCallsToAction();
    const situations = { 'logged-out': 'public', same: null, downgrade: 'admin', upgrade: 'free' } as const;
    for (const plan of ['free', 'business', 'agency'] as const) {
      for (const [situation, action] of Object.entries(table[plan])) {
        const key = situation as keyof typeof situations;
        const current = key === 'same' ? plan : key === 'upgrade' ? (plan === 'agency' ? 'business' : 'free') : situations[key]!;
        if (key === 'upgrade' && plan === 'free') continue;
        expect({ plan, situation, action: callToAction(plan, current) }).toEqual({ plan, situation, action });
      }
    }
    expect(Object.keys(table)).toEqual(['free', 'business', 'agency']);
  });
});
