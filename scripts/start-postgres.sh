#!/usr/bin/env bash
# Starts a local PostgreSQL (Debian's packages) for Ingot's storage tests and creates the role
# ingot/ingot (LOGIN CREATEDB). Idempotent: safe to run when PostgreSQL is already installed or running.
# Needs root on Debian 12. Tests connect with INGOT_TEST_PG_URL (default
# postgres://ingot:ingot@127.0.0.1:5432/postgres).
set -euo pipefail

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -o DPkg::Lock::Timeout=300
  apt-get install -y -o DPkg::Lock::Timeout=300 postgresql
fi

# The newest installed major version, e.g. 15 on Debian 12.
version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
if [ -z "$version" ]; then
  echo "start-postgres: no PostgreSQL server found under /usr/lib/postgresql" >&2
  exit 1
fi

if ! pg_lsclusters --no-header | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
  pg_createcluster "$version" main
fi

if ! pg_lsclusters --no-header | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
  pg_ctlcluster "$version" main start
fi

for _ in $(seq 1 60); do
  if pg_isready -q -h 127.0.0.1 -p 5432; then break; fi
  sleep 0.5
done
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "start-postgres: PostgreSQL $version/main did not become ready on 127.0.0.1:5432" >&2
  exit 1
fi

# runuser keeps this working without sudo; psql runs as the postgres superuser over the local socket.
runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -d postgres <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ingot') THEN
    CREATE ROLE ingot LOGIN CREATEDB PASSWORD 'ingot';
  ELSE
    ALTER ROLE ingot LOGIN CREATEDB PASSWORD 'ingot';
  END IF;
END
$$;
SQL

echo "PostgreSQL $version/main is ready at postgres://ingot:ingot@127.0.0.1:5432/postgres"
