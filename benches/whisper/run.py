"""Whisper base (faster-whisper, int8 on CPU) as Podlens runs it for transcription
requests: speed as the real-time factor (seconds of audio per second of wall time) and
accuracy as the word error rate on speech that espeak-ng says from known text.

    python3 benches/whisper/run.py [MODEL_DIR]

Each passage is said by espeak-ng into a WAV file and transcribed by
tools/whisper/transcribe.py in a child process, exactly as the server's worker runs it
(so the wall time includes starting Python and loading the model); the model load alone
is timed in-process for the breakdown.
"""

import os
import re
import subprocess
import sys
import tempfile
import time
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tools", "whisper", "transcribe.py")

SENTENCES = [
    "The quick brown fox jumps over the lazy dog while podcasters record a long interview about distant mountains",
    "Every morning the host reads the news and then invites a guest to talk about science and history",
    "Our listeners asked how the search engine finds a word that was spoken in the middle of an episode",
    "The weather was cold and grey so the team stayed inside and edited the audio until late at night",
    "She explained that good microphones matter less than a quiet room and a clear voice",
    "After the break we return with a story about a small village that built its own radio station",
]


def words(text):
    return [w for w in (re.sub(r"[^\w']", "", t).lower() for t in text.split()) if w]


def wer(reference, hypothesis):
    ref, hyp = words(reference), words(hypothesis)
    previous = list(range(len(hyp) + 1))
    for i, expected in enumerate(ref):
        current = [i + 1] * (len(hyp) + 1)
        for j, heard in enumerate(hyp):
            current[j + 1] = min(previous[j] + (expected != heard), previous[j + 1] + 1, current[j] + 1)
        previous = current
    return previous[len(hyp)] / max(1, len(ref))


def say(text, path):
    subprocess.run(["espeak-ng", "-w", path, text], check=True)
    with wave.open(path) as audio:
        return audio.getnframes() / audio.getframerate()


def transcribe(model, path):
    import json

    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, SCRIPT, "--model", model, path], check=True, capture_output=True
    )
    seconds = time.perf_counter() - started
    found = json.loads(done.stdout)
    return " ".join(s["text"] for s in found["segments"]), seconds


def main():
    model = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser(
        os.environ.get("PODLENS_WHISPER_DIR", "~/.cache/podlens-models/whisper-base")
    )
    from faster_whisper import WhisperModel

    started = time.perf_counter()
    loaded = WhisperModel(model, device="cpu", compute_type="int8", local_files_only=True)
    load = time.perf_counter() - started
    print(f"model load (in-process): {load:.2f} s")
    print(f"{'passage':<28} {'audio s':>8} {'wall s':>8} {'RTF':>6} {'WER':>6}")
    with tempfile.TemporaryDirectory() as work:
        passages = [(f"sentence {n + 1}", s) for n, s in enumerate(SENTENCES)]
        passages.append(("all six sentences", ". ".join(SENTENCES) + "."))
        passages.append(("all six sentences x4", ". ".join(SENTENCES * 4) + "."))
        total_words = total_errors = 0.0
        for name, text in passages:
            path = os.path.join(work, "said.wav")
            audio = say(text, path)
            heard, seconds = transcribe(model, path)
            rate = wer(text, heard)
            print(f"{name:<28} {audio:8.1f} {seconds:8.1f} {audio / seconds:6.2f} {rate:6.3f}")
            if name.endswith("x4"):
                # the same audio with the model already loaded: decoding alone
                started = time.perf_counter()
                segments, _ = loaded.transcribe(path, beam_size=5)
                heard = " ".join(s.text.strip() for s in segments)
                seconds = time.perf_counter() - started
                rate = wer(text, heard)
                label = name + " (loaded)"
                print(f"{label:<28} {audio:8.1f} {seconds:8.1f} {audio / seconds:6.2f} {rate:6.3f}")
            if name.startswith("sentence"):
                total_words += len(words(text))
                total_errors += rate * len(words(text))
                if rate > 0:
                    print(f"    heard: {heard}")
        print(f"word error rate over the six sentences: {total_errors / total_words:.3f}")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
