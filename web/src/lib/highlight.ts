// Search snippets mark matches with <em> tags (titles, descriptions) or <b> tags
// (transcript passages from the index). They are split into plain text segments here
// and never rendered as HTML.

export type HighlightSegment = { text: string; highlighted: boolean };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Splits a snippet on its <em>…</em>, <b>…</b> or <mark>…</mark> marks; any other tag is dropped. */
export function splitHighlights(snippet: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  const pattern = /<(em|b|mark)>([\s\S]*?)<\/\1>/gi;
  let last = 0;
  const push = (raw: string, highlighted: boolean) => {
    const text = decodeEntities(raw.replace(/<[^>]*>/g, ''));
    if (text) segments.push({ text, highlighted });
  };
  for (let match = pattern.exec(snippet); match; match = pattern.exec(snippet)) {
    push(snippet.slice(last, match.index), false);
    push(match[2], true);
    last = match.index + match[0].length;
  }
  push(snippet.slice(last), false);
  return segments;
}
