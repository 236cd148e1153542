#!/usr/bin/env bash
# Start a throwaway PostgreSQL for the storage tests and print its SQLAlchemy URL on stdout.
# Debian's postgresql is installed if missing (CI reaches Debian's package registry).
set -euo pipefail
if ! command -v pg_lsclusters >/dev/null 2>&1; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$ver main"; then
  pg_createcluster "$ver" main >&2
fi
pg_ctlcluster "$ver" main start >&2 2>/dev/null || true
for _ in $(seq 1 30); do
  su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -qAtc \"select 1 from pg_roles where rolname='tjmj'\"" | grep -q 1 \
  || su postgres -c "psql -qc \"create role tjmj login password 'tjmj'\"" >&2
su postgres -c "psql -qc 'drop database if exists tjmj_test'" >&2
su postgres -c "psql -qc 'create database tjmj_test owner tjmj'" >&2
echo "postgresql+psycopg://tjmj:tjmj@127.0.0.1:5432/tjmj_test"
