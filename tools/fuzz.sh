#!/usr/bin/env bash
# Fuzzes NzbDav's parsers with AFL++ through SharpFuzz (docs/reliability.md, "4. Fuzzed parsers").
#
#   tools/fuzz.sh [-e EXECS | -s SECONDS] [-t TIMEOUT_MS] [TARGET...]   run campaigns, one target at a time
#   tools/fuzz.sh --stats [TARGET...]                                  print the counts of earlier runs
#   tools/fuzz.sh --replay [TARGET...]                                 run kept corpora and findings directly
#   --build-only: build and instrument, then stop; --no-build: fuzz with the last instrumented build.
#
# Targets: nzb yenc rar4 rar5 7z par2 range propfind sab nntp (default: all). Default: 1,000,000
# executions per target. A campaign resumes where the last one stopped (AFL_AUTORESUME). Output:
# backend/fuzz/out/<target>/default/{fuzzer_stats,crashes,hangs,queue} (FUZZ_OUT overrides), not in git;
# every crash or hang is copied into backend/fuzz/findings/<target>/, which the test suite replays.
# Campaigns run under `nice -n 19`; they are long CPU jobs, so do not wrap them in the build lock.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

all_targets=(nzb yenc rar4 rar5 7z par2 par2set range propfind sab nntp)
mode=fuzz
execs=1000000
seconds=""
timeout_ms=5000
targets=()
build_only=""
no_build=""
while [ $# -gt 0 ]; do
  case "$1" in
    -e) execs=$2; seconds=""; shift 2 ;;
    -s) seconds=$2; execs=""; shift 2 ;;
    -t) timeout_ms=$2; shift 2 ;;
    --stats) mode=stats; shift ;;
    --replay) mode=replay; shift ;;
    --build-only) build_only=1; shift ;;
    --no-build) no_build=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

out=${FUZZ_OUT:-$root/backend/fuzz/out}
bin=$out/bin

stat_of() { # stat_of <fuzzer_stats file> <key>
  sed -n "s/^$2 *: *//p" "$1" 2>/dev/null | head -1
}

print_stats() {
  printf '%-9s %12s %9s %8s %6s %8s %s\n' target execs_done exec/s run_s crashes hangs corpus
  for t in "${targets[@]}"; do
    local f=$out/$t/default/fuzzer_stats
    if [ ! -f "$f" ]; then
      printf '%-9s %12s\n' "$t" "(not run)"
      continue
    fi
    local start last
    start=$(stat_of "$f" start_time); last=$(stat_of "$f" last_update)
    printf '%-9s %12s %9s %8s %6s %8s %s\n' "$t" "$(stat_of "$f" execs_done)" "$(stat_of "$f" execs_per_sec)" \
      "$((last - start))" "$(stat_of "$f" saved_crashes)" "$(stat_of "$f" saved_hangs)" "$(stat_of "$f" corpus_count)"
  done
}

if [ "$mode" = stats ]; then
  print_stats
  exit 0
fi

build() {
  # The instrumented copy lives apart from bin/ so an ordinary build never picks up instrumented assemblies.
  dotnet build backend/fuzz/NzbDav.Fuzz -c Release -v q -nologo -clp:ErrorsOnly
  rm -rf "$bin"
  mkdir -p "$bin"
  cp -r backend/fuzz/NzbDav.Fuzz/bin/Release/net10.0/. "$bin/"
}

if [ "$mode" = replay ]; then
  build
  status=0
  for t in "${targets[@]}"; do
    dotnet "$bin/NzbDav.Fuzz.dll" replay "$t" "backend/fuzz/corpus/$t" "backend/fuzz/findings/$t" || status=1
  done
  exit $status
fi

if ! command -v afl-fuzz >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "Installing afl++"
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq afl++ >/dev/null
fi
dotnet tool restore >/dev/null

if [ -z "$no_build" ] || [ ! -f "$bin/.instrumented" ]; then
  build
  # Only our assemblies carry the edge counters AFL++ steers by; the runtime's (System.Private.Xml) are not rewritten.
  for assembly in NzbDav.Usenet NzbDav.Archives NzbDav.Server; do
    dotnet tool run sharpfuzz "$bin/$assembly.dll" >/dev/null
  done
  touch "$bin/.instrumented"
fi
[ -n "$build_only" ] && exit 0

# SharpFuzz speaks AFL's forkserver protocol from managed code, so the binary is `dotnet`, not an
# AFL-compiled one. The .NET runtime reserves far more address space than it uses, so afl-fuzz's
# -m limit is off and the managed heap is capped instead: an input that makes a parser allocate
# without bound ends in OutOfMemoryException, which AFL records as a crash.
export AFL_SKIP_BIN_CHECK=1 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_AUTORESUME=1 \
  AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_SUPPRESS_ERRORS=1 DOTNET_GCHeapHardLimit=0x20000000 \
  DOTNET_TieredPGO=0

for t in "${targets[@]}"; do
  limit=()
  if [ -n "$execs" ]; then limit=(-E "$execs"); else limit=(-V "$seconds"); fi
  echo "== $t: afl-fuzz ${limit[*]} (output $out/$t)"
  nice -n 19 afl-fuzz -i "backend/fuzz/corpus/$t" -o "$out/$t" -t "$timeout_ms" -m none "${limit[@]}" \
    -- dotnet "$bin/NzbDav.Fuzz.dll" "$t" >"$out/$t.log" 2>&1 || echo "afl-fuzz for $t exited with $? (see $out/$t.log)"
  for kind in crashes hangs; do
    for f in "$out/$t/default/$kind"/id:*; do
      [ -f "$f" ] || continue
      mkdir -p "backend/fuzz/findings/$t"
      cp -n "$f" "backend/fuzz/findings/$t/$kind-$(sha1sum "$f" | cut -c1-12)"
      echo "  $kind: backend/fuzz/findings/$t/$kind-$(sha1sum "$f" | cut -c1-12)"
    done
  done
done
print_stats
