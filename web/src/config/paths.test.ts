import { describe, expect, it } from 'vitest';

import { specSection } from '@/test/spec';

import { assertRouteAccess, isValidPodcastSlug, links, RESERVED_PODCAST_SLUGS } from './paths';

describe('podcast slugs', () => {
  it('refuses exactly the words SPEC §2 reserves', () => {
    const sentence = specSection(2).match(/The podcast slug may not be ([^.]+)\./)![1];
    const reserved = sentence.split(/, | or /).map((word) => word.trim());
    expect([...RESERVED_PODCAST_SLUGS].sort()).toEqual(reserved.sort());
    for (const word of reserved) expect(isValidPodcastSlug(word)).toBe(false);
  });

  it('accepts ordinary slugs, including ones that contain a reserved word', () => {
    expect(isValidPodcastSlug('the-daily')).toBe(true);
    expect(isValidPodcastSlug('search-engine-podcast')).toBe(true);
    expect(isValidPodcastSlug('')).toBe(false);
  });
});

describe('route access', () => {
  it('knows public and user, and reports anything else as Unexpected type', () => {
    expect(assertRouteAccess('public')).toBe('public');
    expect(assertRouteAccess('user')).toBe('user');
    expect(() => assertRouteAccess('admin')).toThrow('Unexpected type');
  });
});

describe('links', () => {
  it('lowercases directory letters and encodes query values', () => {
    expect(links.directoryLetter('B')).toBe('/podcasts/directory/b');
    expect(links.error(404, 'No such page')).toBe('/errors/404?message=No+such+page');
    expect(links.outreach('o1', { podcastId: 'p1' })).toBe('/app/outreach/o1?podcast-id=p1');
    expect(links.teamSettings('billing')).toBe('/app/team-settings/billing');
  });
});
