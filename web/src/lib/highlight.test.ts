import { describe, expect, it } from 'vitest';

import { splitHighlights } from './highlight';

describe('splitHighlights', () => {
  it('marks <em> parts and keeps the rest as text', () => {
    expect(splitHighlights('a <em>carbon</em> tax')).toEqual([
      { text: 'a ', highlighted: false },
      { text: 'carbon', highlighted: true },
      { text: ' tax', highlighted: false },
    ]);
  });

  it('never lets other markup through and decodes entities', () => {
    const segments = splitHighlights('<script>x()</script><i>italic</i> &lt;tag&gt; &amp; <em>A&amp;B</em>');
    expect(segments.map((s) => s.text).join('')).toBe('x()italic <tag> & A&B');
    expect(segments.filter((s) => s.highlighted).map((s) => s.text)).toEqual(['A&B']);
  });

  it('marks the <b> parts of transcript passages', () => {
    expect(splitHighlights('should be <b>ignored</b> now')).toEqual([
      { text: 'should be ', highlighted: false },
      { text: 'ignored', highlighted: true },
      { text: ' now', highlighted: false },
    ]);
  });
});
