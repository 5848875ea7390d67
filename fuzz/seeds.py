"""Builds the fuzz targets' seed corpora from the real corpus (../shared/corpus) into
fuzz/corpus/<target>/ (git-ignored; the corpus is never copied into the repository).

    python3 fuzz/seeds.py [--corpus ../shared/corpus]

feed_parser: every feed (files over 128 KiB cut to their first 64 KiB: libFuzzer
mutates small inputs best). transcript_parsers: every transcript. html_contacts: every
web page. social_urls: the http(s) links found in the pages and feeds that name a
social or directory platform (2,000 at most) and 300 others. search_options:
search bodies built from the feeds' titles and languages, one per option family.
sanitizer_differential: the feeds' descriptions, summaries and show notes (as the parser
hands them to the sanitizer: CDATA as written, otherwise entity-decoded), 3,000 at most.
"""

import argparse
import hashlib
import html
import json
import re
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
BIG = 128 * 1024
CUT = 64 * 1024
LINK = re.compile(rb"""https?://[^\s"'<>\\)]{3,200}""")
TITLE = re.compile(rb"<title>(?:<!\[CDATA\[)?([^<\]]{2,80})", re.I)
PLATFORM = re.compile(
    rb"facebook|instagram|twitter|x\.com|youtube|youtu\.be|linkedin|tiktok|patreon|reddit|github|"
    rb"twitch|mastodon|medium|substack|bsky|bluesky|threads|pinterest|snapchat|soundcloud|discord|"
    rb"vimeo|tumblr|behance|beehiiv|linktr|whatsapp|apple\.com|spotify|castbox|overcast|pocketcasts|"
    rb"podchaser|iheart|stitcher|deezer|amazon|castro|podbean|tunein|pandora|player\.fm",
    re.I,
)
DESCRIPTION = re.compile(
    rb"<(description|content:encoded|itunes:summary)>\s*(?:<!\[CDATA\[(.*?)\]\]>|([^<]*))\s*</\1>",
    re.I | re.S,
)
LANGUAGE = re.compile(rb"<language>\s*([A-Za-z-]{2,8})\s*</language>", re.I)


def write(target: str, data: bytes) -> None:
    folder = FUZZ / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def files(root: Path):
    return sorted(path for path in root.rglob("*") if path.is_file())


def search_bodies(titles: list[str], languages: list[str]) -> list[dict]:
    bodies = []
    for title in titles[:40]:
        term = {"searchTerm": title, "searchType": "text", "searchTargets": ["podcast-title"]}
        bodies.append({"searchTerms": [term], "sortOrder": [{"field": "relevance", "order": "desc"}]})
        bodies.append({
            "searchTerms": [dict(term, searchTargets=["episode-title", "transcript"],
                                 searchTermOptions={"matchMode": "must", "phraseMatch": True, "slop": 2})],
            "pageSize": 25,
            "sortOrder": [{"field": "recentActivity", "order": "asc", "nullOrder": "last"}],
        })
    # At and just past the caps on a search's work (16 terms, 32 words and 500
    # characters a term, 8 fuzzy words), so mutations explore both sides of each.
    words = [word for title in titles for word in title.split()] or ["podcast"]
    for count in (8, 9, 16, 17, 32, 33):
        text = " ".join(words[i % len(words)] for i in range(count))
        fuzzy = {"searchTerm": text, "searchType": "text", "searchTargets": ["podcast-title"],
                 "searchTermOptions": {"fuzzy": True}}
        bodies.append({"searchTerms": [fuzzy]})
        bodies.append({"searchTerms": [dict(fuzzy, searchTermOptions={"fuzzy": False})] * min(count, 17)})
    bodies.append({"searchTerms": [{"searchTerm": "x" * 501, "searchType": "text",
                                    "searchTargets": ["podcast-title"]}]})
    for language in sorted(set(languages))[:20]:
        bodies.append({
            "languages": [language.lower()],
            "genres": {"include": ["technology"], "exclude": ["comedy"]},
            "activeSince": {"type": "relative", "value": 30, "unit": "days"},
            "minEpisodes": 10,
            "hasTranscript": True,
            "countries": ["us", "gb"],
            "sortOrder": [{"field": "title", "order": "asc"}],
        })
    return bodies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=FUZZ.parent.parent / "shared" / "corpus")
    corpus = parser.parse_args().corpus
    links: set[bytes] = set()
    titles: list[str] = []
    languages: list[str] = []
    descriptions: set[bytes] = set()
    counts = {}
    for path in files(corpus / "feeds"):
        data = path.read_bytes()
        links.update(LINK.findall(data[: 4 * BIG]))
        titles += [m.decode("utf-8", "replace").strip() for m in TITLE.findall(data[:CUT])[:2]]
        languages += [m.decode() for m in LANGUAGE.findall(data[:CUT])[:1]]
        for _, cdata, escaped in DESCRIPTION.findall(data[: 4 * BIG]):
            text = cdata or html.unescape(escaped.decode("utf-8", "replace")).encode()
            if 0 < len(text) <= 16 * 1024:
                descriptions.add(text)
        write("feed_parser", data if len(data) <= BIG else data[:CUT])
        counts["feed_parser"] = counts.get("feed_parser", 0) + 1
    for path in files(corpus / "transcripts"):
        data = path.read_bytes()
        write("transcript_parsers", data if len(data) <= BIG else data[:CUT])
        counts["transcript_parsers"] = counts.get("transcript_parsers", 0) + 1
    for path in files(corpus / "websites"):
        data = path.read_bytes()
        links.update(LINK.findall(data))
        write("html_contacts", data if len(data) <= BIG else data[:CUT])
        counts["html_contacts"] = counts.get("html_contacts", 0) + 1
    social = [link for link in sorted(links) if PLATFORM.search(link)]
    other = sorted(links - set(social), key=lambda link: hashlib.sha1(link).digest())
    chosen = social[:2000] + other[:300]
    for link in chosen:
        write("social_urls", link)
    counts["social_urls"] = len(chosen)
    bodies = search_bodies([t for t in titles if t], languages)
    for body in bodies:
        write("search_options", json.dumps(body).encode())
    counts["search_options"] = len(bodies)
    chosen = sorted(descriptions, key=lambda text: hashlib.sha1(text).digest())[:3000]
    for text in chosen:
        write("sanitizer_differential", text)
    counts["sanitizer_differential"] = len(chosen)
    for target, count in sorted(counts.items()):
        print(f"{target}: {count} seeds")


if __name__ == "__main__":
    main()
