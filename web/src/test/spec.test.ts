import { describe, expect, it } from 'vitest';

import { specLimitsTable, specRoutes, specSection } from './spec';

describe('the specification reader', () => {
  it('finds the routes of section 2', () => {
    const routes = specRoutes();
    expect(routes).toContain('/');
    expect(routes).toContain('/podcasts/{podcastSlug}');
    expect(routes).toContain('/app/team-settings/{section}/{subSection}');
    expect(routes.length).toBeGreaterThan(50);
  });

  it('reads the eleven rows of the limits table', () => {
    const rows = specLimitsTable();
    expect(rows).toHaveLength(11);
    expect(rows.every((row) => row.cells.length === 6)).toBe(true);
  });

  it('reads section 8', () => {
    expect(specSection(8)).toContain('Error catalogue');
  });
});
