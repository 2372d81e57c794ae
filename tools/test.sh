#!/usr/bin/env bash
# Runs the tests and ends with one summary line "Total: N passed, N failed, N skipped".
# Installs what the tests need on a fresh machine (the .NET SDK is assumed present).
#
#   bash tools/test.sh                   every test: README's command, what CI runs (.ci/run)
#   bash tools/test.sh --fast            the loop while developing: every project's tests except
#                                        those marked slow ([SlowTest], Category=Slow), Vitest and
#                                        ESLint; no Playwright and no inn2 (docs/testing.md)
#   bash tools/test.sh --fast --no-build the same without the incremental build first
set -uo pipefail
cd "$(dirname "$0")/.."

fast=false
build=true
for arg in "$@"; do
  case "$arg" in
    --fast) fast=true ;;
    --no-build) build=false ;;
    -h | --help)
      sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "error: unknown argument $arg (see bash tools/test.sh --help)" >&2
      exit 2
      ;;
  esac
done

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

# Real peers the tests drive (command:package). Installed only when missing. fuse3 lets the
# rclone mount test run; where the machine has no usable FUSE device that test skips, saying why.
# 7zz (Debian's 7-Zip, package 7zip) makes the stored, split and encrypted 7z archives the tests read.
# chromium is the browser Playwright drives for the web UI's end-to-end tests (it cannot download its own here).
# docker-compose (Debian's, a real compose parser; no Docker engine is needed) validates and renders the
# compose files for the deployment tests.
# PostgreSQL (pg_ctlcluster, from postgresql-common) is the second library store; tools/postgres/setup.sh
# starts it with the tests' role. haproxy checks the cluster's load balancer configuration (docker/haproxy.cfg) and runs it in front of test nodes.
required=(par2:par2 rclone:rclone ffprobe:ffmpeg curl:curl fusermount3:fuse3 7zz:7zip chromium:chromium docker-compose:docker-compose pg_ctlcluster:postgresql haproxy:haproxy)
missing=()
for pair in "${required[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing test tools: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null ||
    echo "warning: could not install ${missing[*]}; tests that need them will fail" >&2
fi

# inn2: the real NNTP server the reliability tests read from (docs/reliability.md §1). Installed on its
# own: its postinst fails on a host name without a domain, which tools/inn2/setup.sh then fixes before
# configuring, starting and loading it with the test account, TLS certificate and newsgroup. The fast
# loop skips it: every test that reads from inn2 is marked slow.
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
if [ "$fast" = false ]; then
  if [ ! -x /usr/lib/news/bin/innd ]; then
    echo "Installing test tools: inn2"
    { [ "${#missing[@]}" -gt 0 ] || $sudo_cmd apt-get update -qq; } && $sudo_cmd apt-get install -y -qq inn2 >/dev/null 2>&1 ||
      echo "note: inn2's package set-up did not finish; tools/inn2/setup.sh completes it" >&2
  fi
  $sudo_cmd bash tools/inn2/setup.sh || echo "warning: inn2 could not be set up; the real-server tests will fail" >&2
fi

# PostgreSQL 15: the library store of the PostgreSQL tests (each makes and drops its own database).
$sudo_cmd bash tools/postgres/setup.sh || echo "warning: PostgreSQL could not be started; the PostgreSQL tests will fail" >&2

# The repository's local .NET tools (dotnet-ef, pinned in .config/dotnet-tools.json).
dotnet tool restore >/dev/null || echo "warning: dotnet tool restore failed" >&2

# The web UI (frontend/) is built by the server's build with npm; here a missing or failing UI
# build is an error (NzbDavRequireUi), not the message a user without Node.js gets.
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' 2>/dev/null; then
  echo "error: the tests need Node.js >= 20.19 for the web UI (found: $(node --version 2>/dev/null || echo none))" >&2
fi

# IdleConnectionFloodTests holds 1,000 client and 1,000 server sockets in one test process: make sure
# the descriptor limit allows it (the hard limit can only be raised as root).
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt 8192 ]; then
  ulimit -Hn 8192 2>/dev/null || echo "warning: open files limited to $hard; the connection flood test needs about 3,000" >&2
fi
ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true

log=$(mktemp)
started=$SECONDS
status=0
if [ "$build" = true ]; then
  # The whole solution is built first: `dotnet test` alone builds only the test projects and what they
  # reference, so the BenchmarkDotNet project (backend/benchmarks) could break unseen. Incremental:
  # after a first build only what changed is compiled again.
  dotnet build NzbDav.sln -p:NzbDavRequireUi=true 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
fi
build_seconds=$((SECONDS - started))
started=$SECONDS

filter=()
runsettings=()
if [ "$fast" = true ]; then
  # Tests marked [SlowTest] carry the trait Category=Slow (backend/tests/NzbDav.Testing). Without
  # them, four test classes at a time instead of xUnit's default of one per core: most of what is
  # left waits on sockets, timers and child processes (the Server tests took 138 s with two, 99 s
  # with four). The full suite keeps the default, under which the load-sensitive slow tests run.
  filter=(--filter "Category!=Slow")
  runsettings=(-- xUnit.MaxParallelThreads=4)
fi

# The UI's lint (ESLint, no warning allowed), when frontend/package.json has a lint script: one test
# line, passed or failed, summarised like Vitest's. It keeps one core busy for about half a minute
# while the .NET tests mostly wait, so the fast loop runs it beside them; the full suite runs it
# after them, leaving the load-sensitive slow tests the machine.
lint=false
lint_pid=""
lint_log=$(mktemp)
# The fast loop keeps ESLint's cache (node_modules/.cache/eslint): only files changed since the last
# run are linted again (about 2 s instead of 35 s of CPU). A type-aware rule's finding that depends on
# another, changed file can be missed by the cache, so the full suite always lints everything afresh.
lint_args=()
[ "$fast" = true ] && lint_args=(-- --cache --cache-location node_modules/.cache/eslint/)
run_lint() { (cd frontend && NO_COLOR=1 CI=1 npm run --silent lint "${lint_args[@]}") >"$lint_log" 2>&1; }
(cd frontend && node -e 'process.exit(require("./package.json").scripts?.lint ? 0 : 1)') 2>/dev/null && lint=true
if [ "$lint" = true ] && [ "$fast" = true ] && [ "$status" -eq 0 ]; then
  run_lint &
  lint_pid=$!
fi

if [ "$status" -eq 0 ]; then
  # --blame-hang-timeout turns a hung test into a failure with a dump instead of a stuck CI run.
  dotnet test NzbDav.sln --no-build "${filter[@]}" --blame-hang-timeout 5m "${runsettings[@]}" 2>&1 | tee -a "$log"
  status=${PIPESTATUS[0]}
fi

# The UI's unit tests (Vitest); the build above has run npm ci. Summarised like a test assembly.
ui_log=$(mktemp)
if (cd frontend && NO_COLOR=1 CI=1 npx --no-install vitest run) 2>&1 | tee "$ui_log"; then
  ui_status=0
else
  ui_status=1
fi
ui_passed=$(grep -E '^ +Tests ' "$ui_log" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)
ui_failed=$(grep -E '^ +Tests ' "$ui_log" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || echo 0)
[ "$ui_status" -ne 0 ] && [ "${ui_failed:-0}" -eq 0 ] && ui_failed=1
echo "$( [ "$ui_status" -eq 0 ] && echo Passed || echo Failed)!  - Failed: ${ui_failed:-0}, Passed: ${ui_passed:-0}, Skipped: 0, Total: $(( ${ui_passed:-0} + ${ui_failed:-0} )) - frontend (Vitest)" | tee -a "$log"
rm -f "$ui_log"
[ "$ui_status" -ne 0 ] && status=1

# The UI's lint, started earlier, or now.
if [ "$lint" = true ]; then
  if [ -n "$lint_pid" ]; then
    wait "$lint_pid"
    lint_status=$?
  else
    run_lint
    lint_status=$?
  fi
  cat "$lint_log"
  if [ "$lint_status" -eq 0 ]; then
    echo "Passed!  - Failed: 0, Passed: 1, Skipped: 0, Total: 1 - frontend (ESLint)" | tee -a "$log"
  else
    echo "Failed!  - Failed: 1, Passed: 0, Skipped: 0, Total: 1 - frontend (ESLint)" | tee -a "$log"
    status=1
  fi
fi
rm -f "$lint_log"

# The UI in a real browser: Playwright drives Debian's chromium against the built server
# (frontend/e2e; each spec starts its own server; screenshots in frontend/e2e-results/screenshots).
# Slow (each spec starts a server and a browser): not in the fast loop.
if [ "$fast" = false ]; then
  e2e_log=$(mktemp)
  if (cd frontend && CI=1 npx --no-install playwright test) 2>&1 | tee "$e2e_log"; then
    e2e_status=0
  else
    e2e_status=1
  fi
  e2e_passed=$(grep -oE '^ +[0-9]+ passed' "$e2e_log" | grep -oE '[0-9]+' | tail -1)
  e2e_failed=$(grep -oE '^ +[0-9]+ (failed|flaky)' "$e2e_log" | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}')
  e2e_skipped=$(grep -oE '^ +[0-9]+ skipped' "$e2e_log" | grep -oE '[0-9]+' | tail -1)
  e2e_passed=${e2e_passed:-0}; e2e_failed=${e2e_failed:-0}; e2e_skipped=${e2e_skipped:-0}
  [ "$e2e_status" -ne 0 ] && [ "$e2e_failed" -eq 0 ] && e2e_failed=1
  echo "$( [ "$e2e_status" -eq 0 ] && echo Passed || echo Failed)!  - Failed: ${e2e_failed}, Passed: ${e2e_passed}, Skipped: ${e2e_skipped}, Total: $(( e2e_passed + e2e_failed + e2e_skipped )) - frontend e2e (Playwright, chromium)" | tee -a "$log"
  rm -f "$e2e_log"
  [ "$e2e_status" -ne 0 ] && status=1
fi

# dotnet test prints one "Passed!/Failed!  - Failed: a, Passed: b, Skipped: c, Total: d" line per test assembly.
read -r passed failed skipped < <(
  grep -E '^(Passed|Failed)!' "$log" | sed -E 's/.*Failed: *([0-9]+), Passed: *([0-9]+), Skipped: *([0-9]+).*/\2 \1 \3/' |
    awk '{p+=$1; f+=$2; s+=$3} END {print p+0, f+0, s+0}')
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # the build or a test host failed before any test could report
fi
echo "Build: ${build_seconds} s; tests: $((SECONDS - started)) s$( [ "$fast" = true ] && echo " (fast: slow tests, Playwright and inn2 left out)")"
echo "Total: ${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$status"
