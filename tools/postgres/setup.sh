#!/usr/bin/env bash
# Starts Debian's PostgreSQL 15 as the real library store of the PostgreSQL tests (docs/scale-out.md).
# Idempotent; run as root (tools/test.sh does). Afterwards 127.0.0.1:5432 takes the test role
# nzbdav / nzbdav-test (password over TCP, CREATEDB: each test makes and drops its own database).
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "tools/postgres/setup.sh must run as root" >&2; exit 1; }

version=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
[ -n "$version" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
  pg_createcluster "$version" main >/dev/null
fi
# The tests open a database per test and several servers each: more than the default 100 sessions.
conf=/etc/postgresql/$version/main/postgresql.conf
grep -qE '^max_connections = 300' "$conf" || { sed -i -E 's/^#?max_connections = .*/max_connections = 300/' "$conf"; restart=true; }
# A test store holds nothing worth an fsync: a power cut only loses test data.
grep -qE '^fsync = off' "$conf" || { sed -i -E 's/^#?fsync = .*/fsync = off/' "$conf"; restart=true; }
grep -qE '^synchronous_commit = off' "$conf" || { sed -i -E 's/^#?synchronous_commit = .*/synchronous_commit = off/' "$conf"; restart=true; }
if pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
  [ "${restart:-false}" = true ] && pg_ctlcluster "$version" main restart
else
  pg_ctlcluster "$version" main start
fi

for _ in $(seq 1 50); do
  runuser -u postgres -- pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -d postgres <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'nzbdav') THEN
    CREATE ROLE nzbdav LOGIN CREATEDB PASSWORD 'nzbdav-test';
  END IF;
END $$;
SQL
echo "PostgreSQL $version ready on 127.0.0.1:5432 (role nzbdav)"
