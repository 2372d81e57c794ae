#!/usr/bin/env bash
# Publishes the server (backend/src/NzbDav) for Linux, exactly as the Docker image does: the
# Dockerfile's build stage runs this script, and the test suite runs it for both architectures
# (backend/tests/NzbDav.Server.Tests/Deployment/PublishScriptTests.cs), so the two cannot drift.
#
#   tools/publish.sh <amd64|arm64> <output-dir> [--self-contained]
#
# Without --self-contained the output needs the ASP.NET Core 10 runtime (the image's base has it) and
# is started with `dotnet NzbDav.dll`. With --self-contained it carries the runtime and starts with
# `./NzbDav` on a Linux machine with no .NET installed (docs/deployment.md, "Without Docker").
# Either way the code is compiled ahead of time (ReadyToRun), so the first playback and the first
# seek after a start do not wait for the JIT.
set -euo pipefail

usage() {
  echo "usage: tools/publish.sh <amd64|arm64> <output-dir> [--self-contained]" >&2
  exit 2
}

fail() {
  echo "tools/publish.sh: error: $*" >&2
  exit 1
}

if [ "$#" -lt 2 ] || [ "$#" -gt 3 ]; then
  usage
fi
arch=$1
output=$2
self_contained=false
if [ "$#" -eq 3 ]; then
  [ "$3" = "--self-contained" ] || { echo "tools/publish.sh: unknown option '$3'" >&2; usage; }
  self_contained=true
fi

case "$arch" in
  amd64 | x64 | x86_64) rid=linux-x64 ;;
  arm64 | aarch64) rid=linux-arm64 ;;
  *) fail "unknown architecture '$arch' (expected amd64 or arm64)" ;;
esac
[ -n "$output" ] || fail "the output directory is empty"
command -v dotnet >/dev/null 2>&1 || fail "dotnet is not on PATH (the .NET 10 SDK is needed)"

cd "$(dirname "$0")/.."
repo=$(pwd)
case "$output" in
  /*) ;;
  *) output="$repo/$output" ;;
esac

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

args=(publish backend/src/NzbDav/NzbDav.csproj -c Release -r "$rid" -p:PublishReadyToRun=true -o "$output"
  # Only the server itself is built for the target: the libraries it references, and the mock NNTP
  # server that demo mode runs in-process, are built once for every processor (Directory.Build.targets,
  # tools/MockNntpServer) and ReadyToRun-compiled here for the target. Publishes for several targets
  # (or with and without --self-contained) from one checkout so share the compile of the libraries.
  # Do not add -p:PublishRuntimeIdentifier: it would make every project in the graph target-specific.
  # No MSBuild worker node or compiler server outlives the publish (a container build step, or a
  # test reading this script's output, would otherwise wait for them).
  -nodeReuse:false -p:UseSharedCompilation=false
  # The analyzers and code-style checks run in the test build (tools/test.sh) on the same sources; a
  # release publish skipping them compiles about a quarter faster (arm64 publish: 90 s → 69 s here).
  -p:RunAnalyzers=false -p:EnforceCodeStyleInBuild=false -p:GenerateDocumentationFile=false)
if [ "$self_contained" = true ]; then
  args+=(--self-contained)
else
  args+=(--no-self-contained)
fi

echo "tools/publish.sh: dotnet ${args[*]}"
dotnet "${args[@]}" || fail "dotnet publish for $rid failed (see above)"

[ -f "$output/NzbDav.dll" ] || fail "the publish reported success but $output/NzbDav.dll is missing"
if [ "$self_contained" = true ] && [ ! -x "$output/NzbDav" ]; then
  fail "the self-contained publish has no executable $output/NzbDav"
fi
echo "tools/publish.sh: published NzbDav for $rid ($([ "$self_contained" = true ] && echo self-contained || echo needs the ASP.NET Core runtime)) to $output"
