#!/usr/bin/env bash
# Runs every fuzz target under fuzz/ for a short time (CI) or a long one:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (default 20 s, every target)
# Seeds come from the real corpus (fuzz/seeds.py, into the git-ignored fuzz/corpus).
# Built with cargo-fuzz on the stable toolchain (RUSTC_BOOTSTRAP=1), with libFuzzer's
# coverage instrumentation, debug assertions (overflow checks) and no sanitizer: the
# fuzzed crates contain no unsafe code (the workspace denies it), so panics, overflows,
# timeouts and runaway memory are what is hunted. A crash fails the script and leaves
# its input in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
export RUSTC_BOOTSTRAP=1
seconds="${1:-20}"
shift || true
flags=(--fuzz-dir fuzz -O -a -s none --codegen-units 16 --target-dir "$CARGO_TARGET_DIR/fuzz")

python3 fuzz/seeds.py >/dev/null
cargo fuzz build "${flags[@]}"
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list --fuzz-dir fuzz)
fi
for target in "${targets[@]}"; do
  echo "-- fuzz $target: ${seconds}s"
  cargo fuzz run "${flags[@]}" "$target" -- \
    -max_total_time="$seconds" -max_len=131072 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 2>&1 | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)|ERROR|panicked|SUMMARY|Test unit written" || true
  if compgen -G "fuzz/artifacts/$target/crash-*" >/dev/null || compgen -G "fuzz/artifacts/$target/oom-*" >/dev/null \
    || compgen -G "fuzz/artifacts/$target/timeout-*" >/dev/null; then
    echo "fuzz $target: failing input in fuzz/artifacts/$target/" >&2
    exit 1
  fi
done
