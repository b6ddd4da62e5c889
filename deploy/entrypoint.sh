#!/bin/sh
# The image's entry point: runs the app named by the first argument or SERVICE (apps/<name>/src/main.ts:
# a fleet service, `console` the admin console's app, or by default `standalone`, every service in one
# process), or `migrate` (tools/migrate.ts: every service's migrations against DATABASE_URL, then exit).
set -eu
service="${1:-${SERVICE:-standalone}}"
case "$service" in
  migrate) exec node tools/run.mjs tools/migrate.ts ;;
  '' | *[!a-z-]*) ;;
  *) if [ -f "apps/$service/src/main.ts" ]; then exec node tools/run.mjs "apps/$service/src/main.ts"; fi ;;
esac
echo "unknown service \"$service\"; one of: migrate $(ls apps | grep -v '^e2e$' | tr '\n' ' ')" >&2
exit 64
