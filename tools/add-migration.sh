#!/usr/bin/env bash
# Adds an EF Core migration for a model change: bash tools/add-migration.sh <Name>
# Uses the repository's pinned dotnet-ef (.config/dotnet-tools.json) and the design-time factory in
# NzbDav.Data, so no server configuration or database is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -ne 1 ]; then
  echo "usage: bash tools/add-migration.sh <MigrationName>" >&2
  exit 2
fi
dotnet tool restore >/dev/null
dotnet ef migrations add "$1" --project backend/src/NzbDav.Data --output-dir Migrations
