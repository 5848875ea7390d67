"""Speech to text for Podlens transcription requests, run as a child process.

    python3 transcribe.py --model DIR [--threads N] AUDIO

transcribes AUDIO (any format PyAV decodes) with faster-whisper and the Whisper model
in CTranslate2 format in DIR (scripts/install-whisper.sh installs Whisper base), then
prints one JSON object on stdout:

    {"language": "en", "duration": 5.1, "segments": [{"start": 0.0, "end": 4.8, "text": "..."}]}

Failures print one line on stderr and exit with a code the caller maps to a reason:
2 usage, 3 the file is not decodable audio, 4 the model cannot be loaded or run.
Nothing is downloaded: the model is read from DIR only.
"""

import argparse
import json
import os
import sys

EXIT_USAGE = 2
EXIT_NOT_AUDIO = 3
EXIT_MODEL = 4


def fail(code, message):
    print(message.replace("\n", " "), file=sys.stderr)
    sys.exit(code)


def main():
    parser = argparse.ArgumentParser(description="transcribe one audio file")
    parser.add_argument("--model", required=True, help="CTranslate2 Whisper model folder")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0: all)")
    parser.add_argument("audio", help="the audio file")
    args = parser.parse_args()

    if not os.path.isfile(os.path.join(args.model, "model.bin")):
        fail(EXIT_MODEL, f"no Whisper model in {args.model} (model.bin is missing)")
    try:
        from faster_whisper import WhisperModel
        from faster_whisper.audio import decode_audio
    except ImportError as error:
        fail(EXIT_MODEL, f"faster-whisper is not installed: {error}")

    try:
        audio = decode_audio(args.audio)
    except Exception as error:  # PyAV raises several error types for undecodable input
        fail(EXIT_NOT_AUDIO, f"cannot decode the file as audio: {error}")
    if len(audio) == 0:
        fail(EXIT_NOT_AUDIO, "the file holds no audio samples")

    try:
        model = WhisperModel(
            args.model,
            device="cpu",
            compute_type="int8",
            cpu_threads=args.threads,
            local_files_only=True,
        )
        segments, info = model.transcribe(audio, beam_size=5)
        found = [
            {"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text.strip()}
            for s in segments
            if s.text.strip()
        ]
    except Exception as error:
        fail(EXIT_MODEL, f"the speech model failed: {error}")

    json.dump(
        {"language": info.language, "duration": info.duration, "segments": found},
        sys.stdout,
        ensure_ascii=False,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
