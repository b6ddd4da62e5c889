#!/bin/sh
# The image's entry point: runs the app named by the first argument or SERVICE (apps/<name>/src/main.ts:
# a fleet service, `console` the admin console's app, or by default `standalone`, every service in one
# process), or `migrate` (tools/migrate.ts: every service's migrations against DATABASE_URL, then exit).
set -eu
service="${1:-${SERVICE:-standalone}}"
# What tools/run.mjs does, without its wrapper process: exec makes the service itself the
# container's process (PID 1), so signals reach it directly and no second Node holds ~40 MB to
# forward them. The service handles SIGTERM itself (graceful drain), as PID 1 must.
run() {
  SWC_NODE_PROJECT="$PWD/tsconfig.base.json" exec node --enable-source-maps -r @swc-node/register "$1"
}
case "$service" in
  migrate) run tools/migrate.ts ;;
  '' | *[!a-z-]*) ;;
  *) if [ -f "apps/$service/src/main.ts" ]; then run "apps/$service/src/main.ts"; fi ;;
esac
echo "unknown service \"$service\"; one of: migrate $(ls apps | grep -v '^e2e$' | tr '\n' ' ')" >&2
exit 64
