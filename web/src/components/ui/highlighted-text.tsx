import { splitHighlights } from '@/lib/highlight';

export function HighlightedText({ snippet, className }: { snippet: string; className?: string }) {
  return (
    <span className={className}>
      {splitHighlights(snippet).map((segment, index) =>
        segment.highlighted ? <mark key={index}>{segment.text}</mark> : <span key={index}>{segment.text}</span>,
      )}
    </span>
  );
}
