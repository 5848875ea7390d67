// Reads the product specification (../shared/spec/SPEC.md beside the repository) so
// tests take their expectations from the spec text, not from the code under test.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const SPEC_PATH = resolve(process.cwd(), '../../shared/spec/SPEC.md');

export function specText(): string {
  if (!existsSync(SPEC_PATH)) throw new Error(`the specification is missing at ${SPEC_PATH}`);
  return readFileSync(SPEC_PATH, 'utf8');
}

/** The body of one numbered section, e.g. specSection(9). */
export function specSection(number: number): string {
  const text = specText();
  const start = text.indexOf(`\n## ${number}. `);
  if (start < 0) throw new Error(`section ${number} not found`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Every route pattern of §2, e.g. '/podcasts/{podcastSlug}', with optional parts expanded. */
export function specRoutes(): string[] {
  const section = specSection(2);
  const found = new Set<string>();
  const expand = (route: string): string[] => {
    const optional = route.match(/^(.*?)\[([^\]]+)\](.*)$/);
    if (!optional) return [route];
    return [...expand(optional[1] + optional[3]), ...expand(optional[1] + optional[2] + optional[3])];
  };
  for (const match of section.matchAll(/(\/[a-z0-9\-{}/_[\]]*)/gi)) {
    const route = match[1].replace(/\/$/, '') || '/';
    expand(route).forEach((expanded) => found.add(expanded));
  }
  return [...found];
}

/** The limits table of §9 as rows of cells. */
export function specLimitsTable(): { item: string; cells: string[] }[] {
  const section = specSection(9);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Item') && !line.startsWith('|---'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()))
    .map(([item, ...cells]) => ({ item, cells }));
}
