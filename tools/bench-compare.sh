#!/usr/bin/env bash
# A/B comparison of two builds of the read path: ReadyToRun publishes of two commits, one benchmark run
# alternately on each (ABBA order), the median of the per-pair ratios B ÷ A and a bootstrap interval.
# Every change that touches the read path states this ratio against the main it started from
# (docs/benchmarks.md, "Comparing two builds"). Needs git, the .NET 10 SDK, flock and awk (all on a
# Debian machine with the SDK); no Python, no jq.
set -euo pipefail

prog=tools/bench-compare.sh

usage() {
  cat <<'EOF'
usage: tools/bench-compare.sh REF [OTHER] [--pairs N] [--bench b1|webdav|serve-cpu|streams] [--json] [-- extra benchmark args]

Compares build A (commit REF) with build B (commit OTHER, default HEAD) on one benchmark of the read path
and prints the median of the per-pair ratios B ÷ A with a 90 % bootstrap interval.

Arguments
  REF, OTHER      anything `git rev-parse` takes (sha, branch, tag, HEAD~3, main, …) naming a commit of the
                  repository of the current directory. OTHER may be WORKTREE: the working tree as it is
                  now, uncommitted changes included, published from the repository itself (never cached).
                  Either may also be a folder holding a publish already made (its NzbDav.dll), used as it
                  is: a build from elsewhere, or one publish shared by several comparisons.
  --pairs N       pairs of runs (default 12). Pair i (from 0) runs A then B when i is even, B then A when
                  it is odd (ABBA), so a machine that drifts during the session favours neither build.
  --bench NAME    the benchmark (default b1); each run adds --json --Serilog:MinimumLevel:Default=Warning:
                    b1         --test-full-nzb --mock-server --size=100 --latency=50 --jitter=10 --connections=20
                               metric sequentialMBps (higher is better); also the mean of the seekMs
                               positions, peakRssMB, fetchedToReadRatio
                    webdav     --test-webdav --mock-server --size=500 --latency=50 --jitter=10 --connections=20
                               metric warmGet.MBps (higher is better); also coldGet.ttfbMs, coldGet.MBps
                    serve-cpu  --test-serve-cpu --size=500 --gets=3
                               metric cpuSecondsPerGb (LOWER is better: a B/A ratio below 1 means B spends
                               less CPU per GB); also MBps, serverPeakRssMB, contextSwitchesPerGb
                    streams    --test-webdav --mock-server --streams-held=7 --held-seconds=20 --held-start=30
                               --held-step=5 --held-max=120 --latency=50 --jitter=10 --connections=20
                               metric held: the most concurrent 7 MB/s players, each on a file of its own, that
                               all held their rate (higher is better; steps of 5, so a ratio moves in steps);
                               also, at that step, atHeld.serverPeakRssMB, atHeld.fetchedToServed and
                               atHeld.slowestStartMs. Each run takes minutes (20 s per step, child processes);
                               docs/benchmarks.md's figure holds each step 60 s (-- --held-seconds=60)
  --json          also print one JSON object with everything, per-run values included, as the last line
  -- ARGS         appended to both sides' benchmark command; an option given here replaces the default of
                  the same name (e.g. `-- --size=8` runs b1 on 8 MiB instead of 100)
  --help          this text

What it does
  1. Resolves both commits (an unknown one stops here) and publishes each with ReadyToRun, in a temporary
     `git worktree add --detach` of that commit (removed afterwards), with that commit's own
     `tools/publish.sh amd64 <dir>`; a commit without it is published with
     `dotnet publish backend/src/NzbDav/NzbDav.csproj -c Release -r linux-x64 -p:PublishReadyToRun=true`
     (or backend/src/NzbDav.Server, the executable before backend/src/NzbDav existed). Publishes are cached
     per commit hash in $NZBDAV_BENCH_CACHE/<sha>/ (default ${XDG_CACHE_HOME:-~/.cache}/nzbdav-bench), with a
     marker written only after a publish succeeded, so a failed one is never reused. Same commit twice:
     one publish.
  2. Runs `dotnet <publish>/NzbDav.dll <benchmark args>` 2 × N times in ABBA order, each in an empty
     scratch directory, and reads the last line of its standard output as JSON. A run that exits non-zero,
     prints no JSON, or whose JSON says "passed": false or "verification": {"passed": false} stops the
     comparison (side, run, exit code and its last lines on stderr): no ratio is ever reported from a run
     that failed its verification. (--test-serve-cpu prints no passed field; it exits 1 when a body's hash
     differs.)
  3. Prints per side the commit (short sha, subject), median and range (min–max) of the metric and of the
     secondary figures; the per-pair ratios B ÷ A; their median and its 90 % bootstrap interval (the N
     ratios resampled with replacement 2,000 times, 5th and 95th percentiles of the resampled medians,
     fixed seed: the same runs always give the same interval); and one summary line to paste, e.g.
       b1 sequentialMBps: B/A median 1.031 (90% CI 0.992–1.064), 12 pairs; A 411 MB/s (318–467), B 423 MB/s (401–470)

Reading it: a ratio above 1 is B faster for MB/s metrics, B more CPU-hungry for serve-cpu. An interval
that contains 1 means no difference was shown by this many pairs; more pairs narrow it.

Locking: every publish, and the whole run phase, holds an exclusive flock on $NZBDAV_BENCH_LOCK (default
/tmp/nzbdav-build.lock, the lock every build, test and benchmark on the machine takes), so no measurement
overlaps another build. Set NZBDAV_BENCH_LOCK= (empty) to skip it, e.g. when the caller already holds it:
  flock /tmp/nzbdav-build.lock env NZBDAV_BENCH_LOCK= tools/bench-compare.sh main HEAD

Environment
  NZBDAV_BENCH_CACHE   where publishes are cached (default ${XDG_CACHE_HOME:-$HOME/.cache}/nzbdav-bench)
  NZBDAV_BENCH_LOCK    the lock file (default /tmp/nzbdav-build.lock; empty: no locking)
  NZBDAV_BENCH_DOTNET  the dotnet host that runs the benchmarks (default: dotnet on PATH)

Exit codes: 0 compared; 1 a commit is unknown, a publish or a run failed, or not in a git repository;
2 bad arguments.
EOF
}

fail() {
  echo "$prog: error: $*" >&2
  exit 1
}

bad_usage() {
  echo "$prog: error: $*" >&2
  echo "run '$prog --help' for the usage" >&2
  exit 2
}

note() { echo "$prog: $*" >&2; }

# ---------------------------------------------------------------------------------------------- arguments
pairs=12
bench=b1
json=false
positional=()
extra=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --help | -h) usage; exit 0 ;;
    --pairs) [ "$#" -ge 2 ] || bad_usage "--pairs needs a value"; pairs=$2; shift 2 ;;
    --pairs=*) pairs=${1#--pairs=}; shift ;;
    --bench) [ "$#" -ge 2 ] || bad_usage "--bench needs a value"; bench=$2; shift 2 ;;
    --bench=*) bench=${1#--bench=}; shift ;;
    --json) json=true; shift ;;
    --) shift; extra=("$@"); break ;;
    -*) bad_usage "unknown option '$1'" ;;
    *) positional+=("$1"); shift ;;
  esac
done

case "$bench" in
  b1 | webdav | serve-cpu | streams) ;;
  *) bad_usage "unknown benchmark '$bench' (expected b1, webdav, serve-cpu or streams)" ;;
esac
if ! [[ "$pairs" =~ ^[1-9][0-9]{0,3}$ ]]; then
  bad_usage "--pairs must be a positive whole number (at most 9999); got '$pairs'"
fi
case "${#positional[@]}" in
  0) bad_usage "REF is missing: the commit to compare against (A)" ;;
  1) ref_a=${positional[0]}; ref_b=HEAD ;;
  2) ref_a=${positional[0]}; ref_b=${positional[1]} ;;
  *) bad_usage "at most two commits (REF and OTHER); got: ${positional[*]}" ;;
esac

# The benchmark: its arguments, its metric and the secondary figures (name|JSON field|unit).
# seekMeanMs is computed: the mean of every field under seekMs.
case "$bench" in
  b1)
    bench_args=(--test-full-nzb --mock-server --size=100 --latency=50 --jitter=10 --connections=20)
    metric=sequentialMBps; metric_field=sequentialMBps; unit=MB/s; better=higher
    secondary=("seekMeanMs|seekMs.*|ms" "peakRssMB|peakRssMB|MB" "fetchedToReadRatio|fetchedToReadRatio|")
    ;;
  webdav)
    bench_args=(--test-webdav --mock-server --size=500 --latency=50 --jitter=10 --connections=20)
    metric=warmGet.MBps; metric_field=warmGet.MBps; unit=MB/s; better=higher
    secondary=("coldGet.ttfbMs|coldGet.ttfbMs|ms" "coldGet.MBps|coldGet.MBps|MB/s")
    ;;
  serve-cpu)
    bench_args=(--test-serve-cpu --size=500 --gets=3)
    metric=cpuSecondsPerGb; metric_field=cpuSecondsPerGb; unit="CPU s/GB"; better=lower
    secondary=("MBps|MBps|MB/s" "serverPeakRssMB|serverPeakRssMB|MB" "contextSwitchesPerGb|contextSwitchesPerGb|")
    ;;
  streams)
    bench_args=(--test-webdav --mock-server --streams-held=7 --held-seconds=20 --held-start=30 --held-step=5 --held-max=120
      --latency=50 --jitter=10 --connections=20)
    metric=held; metric_field=held; unit=streams; better=higher
    secondary=("atHeld.serverPeakRssMB|atHeld.serverPeakRssMB|MB" "atHeld.fetchedToServed|atHeld.fetchedToServed|" "atHeld.slowestStartMs|atHeld.slowestStartMs|ms")
    ;;
esac

# An extra option replaces a default of the same name (--size=8 replaces --size=100).
option_name() { local a=$1; a=${a%%=*}; printf '%s' "$a"; }
command_args=()
for default in "${bench_args[@]}"; do
  keep=true
  case "$default" in
    --test-*) ;;
    *)
      for e in "${extra[@]}"; do
        [ "$(option_name "$e")" = "$(option_name "$default")" ] && keep=false
      done
      ;;
  esac
  [ "$keep" = true ] && command_args+=("$default")
done
command_args+=("${extra[@]}" --json --Serilog:MinimumLevel:Default=Warning)

# ---------------------------------------------------------------------------------------------- the repository
repo=$(git rev-parse --show-toplevel 2>/dev/null) || fail "not inside a git repository (run it from a clone of NzbDav; the current directory is $(pwd))"
cd "$repo"

resolve() { # prints the full sha of a commit, DIR:<path> for a folder holding a publish, or fails naming it
  local name=$1 sha
  if [ "$name" = WORKTREE ]; then
    printf 'WORKTREE'
    return
  fi
  if [ -d "$name" ]; then
    [ -f "$name/NzbDav.dll" ] || fail "'$name' is a folder but holds no publish (no NzbDav.dll in it)"
    printf 'DIR:%s' "$(cd "$name" && pwd)"
    return
  fi
  sha=$(git rev-parse --verify --quiet --end-of-options "$name^{commit}" 2>/dev/null) ||
    fail "unknown commit '$name' (git rev-parse finds no commit by that name in $repo)"
  printf '%s' "$sha"
}
[ "$ref_a" != WORKTREE ] || bad_usage "WORKTREE can only be OTHER (B), the build being compared against REF"
sha_a=$(resolve "$ref_a")
sha_b=$(resolve "$ref_b")

describe() { # short sha and subject
  if [ "${1#DIR:}" != "$1" ]; then
    printf 'publish\tthe publish in %s\n' "${1#DIR:}"
  elif [ "$1" = WORKTREE ]; then
    local changed
    changed=$(git status --porcelain --untracked-files=no | wc -l | tr -d ' ')
    printf 'WORKTREE\tworking tree of %s (HEAD %s with %s changed files)\n' "$repo" "$(git rev-parse --short HEAD)" "$changed"
  else
    printf '%s\t%s\n' "$(git rev-parse --short "$1")" "$(git log -1 --format=%s "$1")"
  fi
}
IFS=$'\t' read -r short_a subject_a < <(describe "$sha_a")
IFS=$'\t' read -r short_b subject_b < <(describe "$sha_b")

dotnet_host=${NZBDAV_BENCH_DOTNET:-dotnet}
command -v "$dotnet_host" >/dev/null 2>&1 || fail "'$dotnet_host' is not on PATH (the .NET 10 SDK is needed)"
command -v flock >/dev/null 2>&1 || fail "flock is not installed (Debian package util-linux)"

# ---------------------------------------------------------------------------------------------- locking, clean-up
lock=${NZBDAV_BENCH_LOCK-/tmp/nzbdav-build.lock}
lock_open=false
lock_take() { # $1: what for
  [ -n "$lock" ] || return 0
  if [ "$lock_open" = false ]; then
    exec 9>>"$lock" || fail "cannot open the lock file $lock"
    lock_open=true
  fi
  if ! flock -n 9; then
    note "waiting for $lock (another build or benchmark holds it) before $1"
    flock 9
  fi
}
lock_release() {
  [ -n "$lock" ] && [ "$lock_open" = true ] && flock -u 9
  return 0
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/nzbdav-bench.XXXXXX")
worktree=""
child=""
cleanup() {
  local status=$?
  if [ -n "$child" ]; then kill "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  if [ -n "$worktree" ]; then git -C "$repo" worktree remove --force "$worktree" >/dev/null 2>&1 || true; fi
  rm -rf "$scratch"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------------- publishing
cache_root=${NZBDAV_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nzbdav-bench}

# Publishes the tree in $1 to $2; prints the entry assembly's name. Output goes to $3.
publish_tree() {
  local tree=$1 out=$2 log=$3 project entry
  if [ -f "$tree/tools/publish.sh" ]; then
    entry=NzbDav.dll
    (cd "$tree" && bash tools/publish.sh amd64 "$out") >"$log" 2>&1 9>&- || return 1
    # publish.sh of the commits before issue 11 did not exist; all that have it publish NzbDav.dll
  else
    if [ -f "$tree/backend/src/NzbDav/NzbDav.csproj" ]; then
      project=backend/src/NzbDav/NzbDav.csproj; entry=NzbDav.dll
    elif [ -f "$tree/backend/src/NzbDav.Server/NzbDav.Server.csproj" ]; then
      project=backend/src/NzbDav.Server/NzbDav.Server.csproj; entry=NzbDav.Server.dll
    else
      echo "neither tools/publish.sh nor a known executable project (backend/src/NzbDav, backend/src/NzbDav.Server) is in this tree" >"$log"
      return 1
    fi
    (cd "$tree" && DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 dotnet publish "$project" -c Release -r linux-x64 \
      -p:PublishReadyToRun=true --no-self-contained -nodeReuse:false -p:UseSharedCompilation=false -o "$out") >"$log" 2>&1 9>&- || return 1
  fi
  [ -f "$out/$entry" ] || { echo "the publish reported success but $out/$entry is missing" >>"$log"; return 1; }
  printf '%s' "$entry"
}

publish_failed() { # $1 label, $2 log
  {
    echo "$prog: error: the publish of $1 failed; its last lines:"
    tail -n 25 "$2" | sed 's/^/  | /'
    case "$2" in "$scratch"/*) ;; *) echo "  (the whole log: $2)" ;; esac
  } >&2
  exit 1
}

# Sets pub_dir and pub_entry for commit $1 (a sha or WORKTREE), publishing it unless cached.
publish_commit() {
  local sha=$1 label=$2 dir marker log entry
  if [ "${sha#DIR:}" != "$sha" ]; then
    note "$label: using the publish in ${sha#DIR:} as it is"
    pub_dir=${sha#DIR:}
    pub_entry=NzbDav.dll
    return
  fi
  if [ "$sha" = WORKTREE ]; then
    dir="$scratch/worktree-publish"
    if [ ! -f "$dir/.complete" ]; then
      mkdir -p "$dir"
      lock_take "publishing the working tree"
      note "publishing the working tree of $repo (uncommitted changes included; not cached)…"
      log="$scratch/worktree-publish.log"
      entry=$(publish_tree "$repo" "$dir/out" "$log") || publish_failed "$label" "$log"
      lock_release
      printf '%s\n' "$entry" >"$dir/.complete"
    fi
    pub_dir="$dir/out"
    pub_entry=$(head -n 1 "$dir/.complete")
    return
  fi

  dir="$cache_root/$sha"
  marker="$dir/.complete"
  if [ ! -f "$marker" ] || [ ! -f "$dir/out/$(head -n 1 "$marker")" ]; then
    lock_take "publishing $label"
    # Another comparison may have published it while this one waited for the lock.
    if [ ! -f "$marker" ] || [ ! -f "$dir/out/$(head -n 1 "$marker")" ]; then
      rm -rf "$dir"
      mkdir -p "$dir" || fail "cannot create the cache folder $dir"
      log="$dir/publish.log"
      worktree="$scratch/worktree-${sha:0:12}"
      git worktree add --detach "$worktree" "$sha" >"$log" 2>&1 || publish_failed "$label (git worktree add)" "$log"
      note "publishing $label with ReadyToRun in a temporary worktree (a few minutes; cached in $dir)…"
      local started=$SECONDS
      entry=$(publish_tree "$worktree" "$dir/out" "$log") || {
        git worktree remove --force "$worktree" >/dev/null 2>&1 || true
        worktree=""
        publish_failed "$label" "$log"
      }
      git worktree remove --force "$worktree" >/dev/null 2>&1 || note "warning: could not remove the worktree $worktree"
      worktree=""
      printf '%s\n%s\n' "$entry" "published $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - started)) s" >"$marker"
      note "published $label in $((SECONDS - started)) s"
    else
      note "$label: using the publish cached in $dir"
    fi
    lock_release
  else
    note "$label: using the publish cached in $dir"
  fi
  pub_dir="$dir/out"
  pub_entry=$(head -n 1 "$marker")
}

publish_commit "$sha_a" "A ($short_a)"
pub_a=$pub_dir/$pub_entry
publish_commit "$sha_b" "B ($short_b)"
pub_b=$pub_dir/$pub_entry

# ---------------------------------------------------------------------------------------------- runs
# Flattens one JSON object (one line) to "path<TAB>value" lines: nested keys joined by dots, array items
# by their index, strings without their quotes.
flatten_awk='
function emit(v,   p, k) { p = ""; for (k = 1; k <= d; k++) p = p (k > 1 ? "." : "") key[k]; print p "\t" v }
{
  s = $0; n = length(s); d = 0; i = 1
  while (i <= n) {
    c = substr(s, i, 1)
    if (c == "{") { d++; typ[d] = "o"; expk[d] = 1; key[d] = ""; i++; continue }
    if (c == "[") { d++; typ[d] = "a"; key[d] = 0; i++; continue }
    if (c == "}" || c == "]") { d--; i++; continue }
    if (c == ",") { if (typ[d] == "a") key[d]++; else expk[d] = 1; i++; continue }
    if (c == ":" || c == " " || c == "\t" || c == "\r") { i++; continue }
    if (c == "\"") {
      v = ""; i++
      while (i <= n) {
        c = substr(s, i, 1)
        if (c == "\\") { v = v substr(s, i, 2); i += 2; continue }
        if (c == "\"") break
        v = v c; i++
      }
      i++
      if (typ[d] == "o" && expk[d]) { key[d] = v; expk[d] = 0; continue }
      emit(v); continue
    }
    j = i
    while (j <= n && index(",}] \t\r", substr(s, j, 1)) == 0) j++
    emit(substr(s, i, j - i)); i = j
  }
}'

field() { # $1 flattened file, $2 path; prints the value or nothing
  awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$1"
}

is_number() { [[ "$1" =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; }

results="$scratch/results.tsv"
: >"$results"
total=$((2 * pairs))
run=0

run_side() { # $1 side (A|B), $2 pair (1-based), $3 order (AB|BA)
  local side=$1 pair=$2 order=$3 dll out err flat rc=0 last value passed vpassed line name path sec_unit v
  run=$((run + 1))
  if [ "$side" = A ]; then dll=$pub_a; else dll=$pub_b; fi
  local dir="$scratch/run-$run"
  mkdir -p "$dir"
  out="$dir/stdout"; err="$dir/stderr"; flat="$dir/flat.tsv"
  local started=$SECONDS
  (cd "$dir" && exec "$dotnet_host" "$dll" "${command_args[@]}") >"$out" 2>"$err" 9>&- &
  child=$!
  wait "$child" || rc=$?
  child=""
  local what="side $side ($( [ "$side" = A ] && echo "$short_a" || echo "$short_b")), run $run of $total (pair $pair, $order)"
  if [ "$rc" -ne 0 ]; then
    run_failed "$what exited with code $rc" "$out" "$err"
  fi
  last=$(tail -n 1 "$out")
  case "$last" in
    "{"*"}") ;;
    *) run_failed "$what printed no JSON on the last line of its output (exit code 0)" "$out" "$err" ;;
  esac
  printf '%s\n' "$last" | LC_ALL=C awk "$flatten_awk" >"$flat"
  passed=$(field "$flat" passed)
  vpassed=$(field "$flat" verification.passed)
  if [ "$passed" = false ] || [ "$vpassed" = false ]; then
    run_failed "$what failed its verification (exit code $rc, \"passed\": ${passed:-absent}, \"verification.passed\": ${vpassed:-absent}); no ratio is reported from it" "$out" "$err"
  fi
  value=$(field "$flat" "$metric_field")
  is_number "$value" || run_failed "$what: the JSON has no number $metric_field (got '${value}')" "$out" "$err"
  line="$pair"$'\t'"$order"$'\t'"$side"$'\t'"$run"$'\t'"$value"
  for s in "${secondary[@]}"; do
    IFS='|' read -r name path sec_unit <<<"$s"
    if [ "$path" = 'seekMs.*' ]; then
      v=$(LC_ALL=C awk -F '\t' '$1 ~ /^seekMs\./ && $2 ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ { s += $2; n++ } END { if (n) printf "%.4f", s / n }' "$flat")
    else
      v=$(field "$flat" "$path")
    fi
    is_number "$v" || v=NA
    line+=$'\t'"$v"
  done
  printf '%s\n' "$line" >>"$results"
  note "pair $pair/$pairs ($order): $side $metric $value $unit ($((SECONDS - started)) s)"
  rm -rf "$dir"
}

run_failed() { # $1 message, $2 stdout file, $3 stderr file
  {
    echo "$prog: error: $1"
    if [ -s "$2" ]; then echo "  last lines of its standard output:"; tail -n 15 "$2" | cut -c1-400 | sed 's/^/  | /'; fi
    if [ -s "$3" ]; then echo "  last lines of its standard error:"; tail -n 15 "$3" | cut -c1-400 | sed 's/^/  | /'; fi
  } >&2
  exit 1
}

lock_take "the benchmark runs"
note "running $bench: $pairs pair(s) in ABBA order, $total runs: dotnet <publish>/NzbDav.dll ${command_args[*]}"
for ((i = 0; i < pairs; i++)); do
  if ((i % 2 == 0)); then
    run_side A $((i + 1)) AB
    run_side B $((i + 1)) AB
  else
    run_side B $((i + 1)) BA
    run_side A $((i + 1)) BA
  fi
done
lock_release

# ---------------------------------------------------------------------------------------------- statistics
sec_names=""; sec_units=""
for s in "${secondary[@]}"; do
  IFS='|' read -r name path sec_unit <<<"$s"
  sec_names+="$name"$'\t'; sec_units+="$sec_unit"$'\t'
done
extra_joined=""
for e in "${extra[@]}"; do extra_joined+="$e"$'\t'; done
command_joined=""
for e in "${command_args[@]}"; do command_joined+="$e"$'\t'; done

export BC_BENCH=$bench BC_METRIC=$metric BC_UNIT=$unit BC_BETTER=$better BC_PAIRS=$pairs BC_JSON=$json
export BC_SEC_NAMES=$sec_names BC_SEC_UNITS=$sec_units BC_EXTRA=$extra_joined BC_COMMAND=$command_joined
export BC_A_REF=$ref_a BC_A_SHA=$sha_a BC_A_SHORT=$short_a BC_A_SUBJECT=$subject_a
export BC_B_REF=$ref_b BC_B_SHA=$sha_b BC_B_SHORT=$short_b BC_B_SUBJECT=$subject_b

# The report. The bootstrap draws with the Park–Miller generator (x ← 16807·x mod 2^31−1, exact in any
# awk's doubles), so the same runs give the same interval on every machine and awk.
LC_ALL=C awk -F '\t' '
function fmt(x,   a) {
  a = x < 0 ? -x : x
  if (a >= 100) return sprintf("%.0f", x)
  if (a >= 10) return sprintf("%.1f", x)
  if (a >= 1) return sprintf("%.2f", x)
  return sprintf("%.3f", x)
}
function fmt4(x,   a) { # the detail lines: one more digit
  a = x < 0 ? -x : x
  if (a >= 1000) return sprintf("%.0f", x)
  if (a >= 100) return sprintf("%.1f", x)
  if (a >= 10) return sprintf("%.2f", x)
  if (a >= 1) return sprintf("%.3f", x)
  return sprintf("%.4f", x)
}
function num(x) { return (x == int(x) && (x < 0 ? -x : x) < 1e15) ? sprintf("%d", x) : sprintf("%.10g", x) }
function jstr(s,   o, i, c, n) {
  o = ""; n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (c == "\\") o = o "\\\\"
    else if (c == "\"") o = o "\\\""
    else if (c == "\t") o = o "\\t"
    else if (c == "\n") o = o "\\n"
    else if (c == "\r") o = o "\\r"
    else o = o c
  }
  return "\"" o "\""
}
function jlist(s,   parts, n, i, o) { # tab-terminated list -> JSON array of strings
  n = split(s, parts, "\t"); o = ""
  for (i = 1; i <= n; i++) if (parts[i] != "") o = o (o == "" ? "" : ",") jstr(parts[i])
  return "[" o "]"
}
function sort(arr, n,   i, j, t) { # insertion sort of arr[1..n]
  for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
}
function median(arr, n,   tmp, i) {
  for (i = 1; i <= n; i++) tmp[i] = arr[i]
  sort(tmp, n)
  return n % 2 ? tmp[(n + 1) / 2] : (tmp[n / 2] + tmp[n / 2 + 1]) / 2
}
function percentile(sorted, n, p,   h, lo) { # linear interpolation between closest ranks
  h = (n - 1) * p + 1; lo = int(h)
  return lo >= n ? sorted[n] : sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo])
}
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
function summarize(side, col,   vals, n, i, lo, hi, v) { # sets S_med/S_min/S_max/S_n
  n = 0
  for (i = 1; i <= rows; i++) if (R_side[i] == side && R[i, col] != "NA") { v = R[i, col] + 0; vals[++n] = v; if (n == 1 || v < lo) lo = v; if (n == 1 || v > hi) hi = v }
  S_n = n
  if (n == 0) return 0
  S_med = median(vals, n); S_min = lo; S_max = hi
  return 1
}
function jsummary(side, col) {
  if (!summarize(side, col)) return "null"
  return "{\"median\":" num(S_med) ",\"min\":" num(S_min) ",\"max\":" num(S_max) ",\"runs\":" S_n "}"
}
function side_block(side, short, subject,   c, label, line) {
  printf "%s  %s  %s\n", side, short, subject
  summarize(side, 5)
  printf "   %-22s median %-9s range %s–%s%s\n", metric, fmt4(S_med), fmt4(S_min), fmt4(S_max), (unit != "" ? "  " unit : "")
  for (c = 1; c <= nsec; c++) {
    label = secname[c]
    if (summarize(side, 5 + c))
      printf "   %-22s median %-9s range %s–%s%s\n", label, fmt4(S_med), fmt4(S_min), fmt4(S_max), (secunit[c] != "" ? "  " secunit[c] : "")
    else
      printf "   %-22s (not reported)\n", label
  }
}
{
  rows++
  R_pair[rows] = $1; R_order[rows] = $2; R_side[rows] = $3; R_run[rows] = $4
  for (c = 5; c <= NF; c++) R[rows, c] = $c
  if ($3 == "A") A[$1] = $5 + 0; else B[$1] = $5 + 0
}
END {
  bench = ENVIRON["BC_BENCH"]; metric = ENVIRON["BC_METRIC"]; unit = ENVIRON["BC_UNIT"]; better = ENVIRON["BC_BETTER"]
  pairs = ENVIRON["BC_PAIRS"] + 0
  nsec = split(ENVIRON["BC_SEC_NAMES"], secname, "\t"); if (nsec > 0 && secname[nsec] == "") nsec--
  split(ENVIRON["BC_SEC_UNITS"], secunit, "\t")
  for (p = 1; p <= pairs; p++) {
    if (A[p] == 0) { printf "tools/bench-compare.sh: error: A measured %s = 0 in pair %d: no ratio can be taken\n", metric, p > "/dev/stderr"; exit 1 }
    ratio[p] = B[p] / A[p]
  }
  med = median(ratio, pairs)
  seed = 20250601
  for (b = 1; b <= 2000; b++) {
    for (i = 1; i <= pairs; i++) { k = int(rnd() * pairs) + 1; if (k > pairs) k = pairs; sample[i] = ratio[k] }
    boot[b] = median(sample, pairs)
  }
  # 2,000 values: a shell sort instead of the insertion sort
  for (gap = int(2000 / 2); gap > 0; gap = int(gap / 2))
    for (i = gap + 1; i <= 2000; i++) { t = boot[i]; for (j = i; j > gap && boot[j - gap] > t; j -= gap) boot[j] = boot[j - gap]; boot[j] = t }
  ci_lo = percentile(boot, 2000, 0.05); ci_hi = percentile(boot, 2000, 0.95)

  direction = better == "higher" ? "higher is better: a ratio above 1 means B is better" : "LOWER is better: a ratio below 1 means B is better"
  printf "%s: %d pair%s in ABBA order (%d runs), metric %s (%s, %s)\n", bench, pairs, (pairs == 1 ? "" : "s"), 2 * pairs, metric, unit, direction
  ncmd = split(ENVIRON["BC_COMMAND"], cmd, "\t"); line = ""
  for (i = 1; i <= ncmd; i++) if (cmd[i] != "") line = line " " cmd[i]
  printf "command: dotnet <publish>/NzbDav.dll%s\n\n", line
  side_block("A", ENVIRON["BC_A_SHORT"], ENVIRON["BC_A_SUBJECT"])
  side_block("B", ENVIRON["BC_B_SHORT"], ENVIRON["BC_B_SUBJECT"])
  printf "\nB/A per pair:"
  for (p = 1; p <= pairs; p++) printf " %.3f", ratio[p]
  printf "\n"
  printf "B/A median %.3f, 90%% bootstrap interval %.3f–%.3f (2,000 resamples of the %d pair ratio%s, fixed seed)\n", med, ci_lo, ci_hi, pairs, (pairs == 1 ? "" : "s")
  if (pairs < 4) verdict = "only " pairs " pair" (pairs == 1 ? "" : "s") ": too few to tell a difference from noise (the default is 12)"
  else if (ci_lo <= 1 && ci_hi >= 1) verdict = "the interval contains 1: no difference shown by " pairs " pairs"
  else verdict = ((better == "higher") == (med > 1)) ? "the interval excludes 1: B is better than A" : "the interval excludes 1: B is worse than A"
  printf "%s\n\n", verdict
  summarize("A", 5); a_med = S_med; a_min = S_min; a_max = S_max
  summarize("B", 5)
  printf "%s %s%s: B/A median %.3f (90%% CI %.3f–%.3f), %d pair%s; A %s %s (%s–%s), B %s %s (%s–%s)\n", \
    bench, metric, (better == "lower" ? " (lower is better)" : ""), med, ci_lo, ci_hi, pairs, (pairs == 1 ? "" : "s"), \
    fmt(a_med), unit, fmt(a_min), fmt(a_max), fmt(S_med), unit, fmt(S_min), fmt(S_max)

  if (ENVIRON["BC_JSON"] == "true") {
    o = "{\"bench\":" jstr(bench) ",\"metric\":" jstr(metric) ",\"unit\":" jstr(unit) ",\"better\":" jstr(better)
    o = o ",\"pairs\":" pairs ",\"order\":\"ABBA\",\"command\":" jlist(ENVIRON["BC_COMMAND"]) ",\"extraArgs\":" jlist(ENVIRON["BC_EXTRA"])
    split("A B", sides, " ")
    for (si = 1; si <= 2; si++) {
      s = sides[si]
      o = o ",\"" s "\":{\"ref\":" jstr(ENVIRON["BC_" s "_REF"]) ",\"commit\":" jstr(ENVIRON["BC_" s "_SHA"]) ",\"short\":" jstr(ENVIRON["BC_" s "_SHORT"]) ",\"subject\":" jstr(ENVIRON["BC_" s "_SUBJECT"])
      o = o ",\"metric\":" jsummary(s, 5) ",\"secondary\":{"
      for (c = 1; c <= nsec; c++) o = o (c > 1 ? "," : "") jstr(secname[c]) ":" jsummary(s, 5 + c)
      o = o "}}"
    }
    o = o ",\"ratio\":{\"median\":" num(med) ",\"ci90\":[" num(ci_lo) "," num(ci_hi) "],\"bootstrapResamples\":2000,\"perPair\":["
    for (p = 1; p <= pairs; p++) o = o (p > 1 ? "," : "") num(ratio[p])
    o = o "]},\"runs\":["
    for (i = 1; i <= rows; i++) {
      o = o (i > 1 ? "," : "") "{\"run\":" R_run[i] ",\"pair\":" R_pair[i] ",\"order\":" jstr(R_order[i]) ",\"side\":" jstr(R_side[i]) ",\"" metric "\":" num(R[i, 5] + 0)
      for (c = 1; c <= nsec; c++) o = o "," jstr(secname[c]) ":" (R[i, 5 + c] == "NA" ? "null" : num(R[i, 5 + c] + 0))
      o = o "}"
    }
    o = o "]}"
    print o
  }
}' "$results"
