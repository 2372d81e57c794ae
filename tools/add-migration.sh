#!/usr/bin/env bash
# Adds an EF Core migration for a model change, for both stores: bash tools/add-migration.sh <Name>
# Uses the repository's pinned dotnet-ef (.config/dotnet-tools.json) and each project's design-time
# factory (NzbDav.Data: SQLite, NzbDav.Data.Postgres: PostgreSQL), so no server configuration or
# database is needed. EF keeps one migrations assembly per provider; both must follow the model
# (StoreTests and PostgresStoreTests fail on a change missing from either).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -ne 1 ]; then
  echo "usage: bash tools/add-migration.sh <MigrationName>" >&2
  exit 2
fi
dotnet tool restore >/dev/null
dotnet ef migrations add "$1" --project backend/src/NzbDav.Data --output-dir Migrations
dotnet ef migrations add "$1" --project backend/src/NzbDav.Data.Postgres --startup-project backend/src/NzbDav.Data.Postgres --output-dir Migrations
