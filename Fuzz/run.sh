#!/usr/bin/env bash
# Builds and runs one libFuzzer target for a given time.
#
#   Fuzz/run.sh TARGET SECONDS      TARGET: json-parser | spec | archive
#
# The target is compiled together with the library's sources into one module
# (swiftc -sanitize=fuzzer,address), into .build-fuzz/. The corpus grows in
# .build-fuzz/corpus/TARGET (kept between runs; FUZZ_CORPUS=DIR grows DIR
# instead, as CI does for a run that starts from the seeds alone), seeded from Fixtures/,
# Fuzz/seeds/TARGET and Fixtures/regressions/TARGET. Crashing inputs are saved
# under Fuzz/crashes/TARGET/: fix the bug, then move the input to
# Fixtures/regressions/TARGET/ so `swift test` replays it.
# Extra arguments after SECONDS go to libFuzzer (e.g. -jobs=2, -seed=1).
set -euo pipefail

# Everything is in a function so bash reads the whole script before running
# it: editing the script while a long run is under way cannot derail it.
main() {
  cd "$(dirname "$0")/.."
  if ! command -v swiftc >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swiftc ]; then
    export PATH=/opt/swift/usr/bin:$PATH
  fi

  target=${1:-}
  seconds=${2:-}
  if [ -z "$target" ] || [ -z "$seconds" ]; then
    echo "usage: Fuzz/run.sh json-parser|spec|archive SECONDS [libFuzzer options...]" >&2
    exit 2
  fi
  shift 2

  case "$target" in
    json-parser) entry=JSONParserTarget; max_len=16384; dict=Fuzz/json.dict ;;
    spec)        entry=SpecTarget;       max_len=4096;  dict=Fuzz/spec.dict ;;
    archive)     entry=ArchiveTarget;    max_len=16384; dict= ;;
    *) echo "unknown target '$target' (json-parser, spec, archive)" >&2; exit 2 ;;
  esac

  out=.build-fuzz
  binary=$out/$target
  mkdir -p "$out"
  mapfile -t sources < <(find Sources/AGViewModel -name '*.swift' | sort)
  inputs=("${sources[@]}" Tests/AGViewModelTests/Regressions/FuzzInvariants.swift Tests/AGViewModelTests/Regressions/ReferenceJSONParser.swift Fuzz/FuzzSupport.swift "Fuzz/$entry.swift")

  # Rebuild only when a source is newer than the binary.
  stale=1
  if [ -x "$binary" ]; then
    stale=0
    for f in "${inputs[@]}" "$0"; do
      if [ "$f" -nt "$binary" ]; then stale=1; break; fi
    done
  fi
  if [ "$stale" = 1 ]; then
    echo "== building $binary"
    start=$(date +%s)
    # -O: many more executions per second than -Onone, and Swift keeps its
    # overflow and bounds checks (they trap, which libFuzzer reports).
    # -D FUZZING: the shared test files skip their `import AGViewModel`.
    rm -f "$binary"
    set +e
    swiftc -sanitize=fuzzer,address -parse-as-library -module-name AGViewModel -package-name AGViewModel \
      -O -g -D FUZZING -swift-version 6 \
      "${inputs[@]}" -o "$binary" 2>&1 | grep -v "Cannot export local symbol"
    build_status=${PIPESTATUS[0]}
    set -e
    # (gold warns about every ASan helper symbol; those warnings are filtered.)
    if [ "$build_status" -ne 0 ] || [ ! -x "$binary" ]; then
      echo "build failed" >&2; exit 1
    fi
    echo "built in $(( $(date +%s) - start ))s"
  fi

  # Seeds.
  seeds=$out/seeds/$target
  rm -rf "$seeds"
  corpus=${FUZZ_CORPUS:-$out/corpus/$target}
  mkdir -p "$seeds" "$corpus" "Fuzz/crashes/$target" "Fixtures/regressions/$target"
  case "$target" in
    json-parser)
      cp Fixtures/*.json "$seeds"/
      for f in Fixtures/golden/*.json Fixtures/invalid/*.json; do
        [ -f "$f" ] && cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
      done
      cp Fuzz/seeds/json-parser/* "$seeds"/ ;;
    spec)
      for f in Fixtures/specs/*.json Fixtures/invalid/*.spec.json; do
        [ -f "$f" ] && cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
      done
      cp Fuzz/seeds/spec/* "$seeds"/ ;;
    archive)
      AGVM_FUZZ_MAKE_SEEDS="$seeds" AGVM_FUZZ_FIXTURES=Fixtures "$binary"
      # Damaged archives, as whole files (mode byte 0).
      for f in Fixtures/invalid/*.agvm; do
        [ -f "$f" ] && { printf '\0'; cat "$f"; } > "$seeds/invalid-$(basename "$f")"
      done ;;
  esac
  echo "== seeds: $(ls "$seeds" | wc -l) in $seeds, regressions: $(ls "Fixtures/regressions/$target" | wc -l)"

  log=$out/$target.log
  dict_option=()
  if [ -n "$dict" ]; then dict_option=(-dict="$dict"); fi
  echo "== fuzzing $target for ${seconds}s (log: $log)"
  set +e
  # SWIFT_BACKTRACE: the Swift runtime's backtracer, reading memory after a
  # fatal error, trips ASan and buries the invariant message; libFuzzer and
  # ASan print the stack instead.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$binary" \
    -max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len" -timeout=20 -rss_limit_mb=3072 \
    -artifact_prefix="Fuzz/crashes/$target/" "${dict_option[@]}" "$@" \
    "$corpus" "$seeds" "Fixtures/regressions/$target" 2>&1 | tee "$log" | grep -E --line-buffered '^#[0-9]+.*(INITED|pulse|DONE)|ERROR|crash-|Fatal error|invariant|SUMMARY|artifact'
  status=${PIPESTATUS[0]}
  set -e

  echo "== summary ($target, ${seconds}s)"
  grep -E '^#[0-9]+' "$log" | tail -n 1 || true
  grep -E '^stat::' "$log" || true
  echo "corpus: $(ls "$corpus" | wc -l) inputs"
  crashes=$(ls "Fuzz/crashes/$target" | wc -l)
  echo "crashes saved in Fuzz/crashes/$target: $crashes"
  exit "$status"
}

main "$@"
