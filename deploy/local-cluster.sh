#!/usr/bin/env bash
# A Bosun cluster on one machine, as the README's "Running as a cluster" walks through it:
# PostgreSQL in a temp folder, moto's S3 for package blobs, three replicas (`bosun serve`) behind
# HAProxy with deploy/haproxy/bosun.cfg. Idempotent: `start` starts what is not running.
#   deploy/local-cluster.sh start   # everything up; prints the load balancer's URL
#   deploy/local-cluster.sh demo    # onboard a Tacker sample, instantiate, kill a replica, finish
#   deploy/local-cluster.sh stop    # stops every process it started (by PID) and removes the folder
# LOCAL_CLUSTER_DIR (default /tmp/bosun-local-cluster) and LOCAL_CLUSTER_PORT (default 19900:
# PostgreSQL, +1 S3, +2 HAProxy, +3..+5 the replicas) choose where.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${LOCAL_CLUSTER_DIR:-/tmp/bosun-local-cluster}
PORT=${LOCAL_CLUSTER_PORT:-19900}
PG_PORT=$PORT S3_PORT=$((PORT + 1)) LB_PORT=$((PORT + 2))
LB=http://127.0.0.1:$LB_PORT
SAMPLE=${LOCAL_CLUSTER_SAMPLE:-$ROOT/../shared/samples/tacker/sol_v2_common__basic_lcms_max_individual_vnfc.zip}
BOSUN=$ROOT/bin/bosun
NODE=$ROOT/node_modules/.bin/node

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
# PostgreSQL refuses to run as root: run its tools as the postgres user then.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
wait_http() { for _ in $(seq 1 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.2; done; echo "no answer from $1" >&2; return 1; }
# A field of the JSON on stdin, e.g. `json id`.
json() { "$NODE" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s)[process.argv[1]];console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }

replica_env() {
  export BOSUN_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  export BOSUN_SECURITY_ENCRYPTION_KEY="$(cat "$DIR/key")"
  export BOSUN_BLOBS_BACKEND=s3 BOSUN_BLOBS_S3_BUCKET=bosun BOSUN_BLOBS_S3_ENDPOINT="http://127.0.0.1:$S3_PORT"
  export BOSUN_BLOBS_S3_ACCESS_KEY_ID=local BOSUN_BLOBS_S3_SECRET_ACCESS_KEY=local
  export BOSUN_SERVER_DRAIN_MS=3000 BOSUN_WORKER_LEASE_MS=5000 BOSUN_SIM_OPERATION_DELAY_MS=${BOSUN_SIM_OPERATION_DELAY_MS:-300}
}

start() {
  mkdir -p "$DIR"
  [ -f "$DIR/key" ] || "$NODE" -e 'console.log(require("crypto").randomBytes(32).toString("base64"))' >"$DIR/key"
  if [ ! -d "$DIR/pg" ]; then
    mkdir -p "$DIR/pg" && [ "$(id -u)" != 0 ] || chown postgres "$DIR" "$DIR/pg"
    as_pg "$(pg_bin)/initdb" -D "$DIR/pg" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
  fi
  if ! as_pg "$(pg_bin)/pg_ctl" -D "$DIR/pg" status >/dev/null 2>&1; then
    as_pg "$(pg_bin)/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w \
      -o "-p $PG_PORT -k $DIR -c listen_addresses=127.0.0.1" start >/dev/null
  fi
  if ! alive "$DIR/moto.pid"; then
    moto_server -H 127.0.0.1 -p "$S3_PORT" >"$DIR/moto.log" 2>&1 &
    echo $! >"$DIR/moto.pid"
  fi
  wait_http "http://127.0.0.1:$S3_PORT/"
  curl -fsS -X PUT "http://127.0.0.1:$S3_PORT/bosun" >/dev/null
  replica_env
  "$BOSUN" db migrate >/dev/null
  for i in 1 2 3; do
    if ! alive "$DIR/replica$i.pid"; then
      BOSUN_SERVER_PORT=$((PORT + 2 + i)) BOSUN_BLOBS_CACHE_DIR="$DIR/cache$i" \
        "$BOSUN" serve --role all --no-pretty >"$DIR/replica$i.log" 2>&1 &
      echo $! >"$DIR/replica$i.pid"
    fi
  done
  for i in 1 2 3; do wait_http "http://127.0.0.1:$((PORT + 2 + i))/readyz"; done
  if ! alive "$DIR/haproxy.pid"; then
    BOSUN_LB_BIND=127.0.0.1:$LB_PORT BOSUN_API_1=127.0.0.1:$((PORT + 3)) BOSUN_API_2=127.0.0.1:$((PORT + 4)) \
      BOSUN_API_3=127.0.0.1:$((PORT + 5)) haproxy -f "$ROOT/deploy/haproxy/bosun.cfg" -D -p "$DIR/haproxy.pid"
  fi
  wait_http "$LB/readyz"
  echo "Bosun cluster at $LB (PostgreSQL :$PG_PORT, S3 :$S3_PORT, replicas :$((PORT + 3))-:$((PORT + 5)))"
}

demo() {
  local V='Version: 2.0.0' P='Version: 2.1.0' J='Content-Type: application/json'
  pkg=$(curl -fsS -X POST "$LB/vnfpkgm/v2/vnf_packages" -H "$P" -H "$J" -d '{}' | json id)
  curl -fsS -X PUT "$LB/vnfpkgm/v2/vnf_packages/$pkg/package_content" -H "$P" \
    -H 'Content-Type: application/zip' --data-binary "@$SAMPLE" >/dev/null
  for _ in $(seq 1 300); do
    state=$(curl -fsS "$LB/vnfpkgm/v2/vnf_packages/$pkg" -H "$P" | json onboardingState)
    [ "$state" = ONBOARDED ] && break
    sleep 0.2
  done
  vnfd=$(curl -fsS "$LB/vnfpkgm/v2/vnf_packages/$pkg" -H "$P" | json vnfdId)
  echo "package $pkg $state (vnfdId $vnfd)"
  inst=$(curl -fsS -X POST "$LB/vnflcm/v2/vnf_instances" -H "$V" -H "$J" -d "{\"vnfdId\":\"$vnfd\"}" | json id)
  op=$(curl -fsS -D - -o /dev/null -X POST "$LB/vnflcm/v2/vnf_instances/$inst/instantiate" -H "$V" -H "$J" \
    -d '{"flavourId":"simple"}' | tr -d '\r' | sed -n 's/^[Ll]ocation: .*\///p')
  echo "instantiate of $inst: op occ $op"
  # Kill a replica while the operation runs: HAProxy takes it out, another worker takes over.
  kill -9 "$(cat "$DIR/replica1.pid")" && echo "killed replica 1 (pid $(cat "$DIR/replica1.pid"))"
  for _ in $(seq 1 600); do
    state=$(curl -fsS "$LB/vnflcm/v2/vnf_lcm_op_occs/$op" -H "$V" | json operationState)
    case $state in
      COMPLETED) break ;;
      FAILED_TEMP) echo "op occ FAILED_TEMP (its worker died): retrying"
        curl -fsS -X POST "$LB/vnflcm/v2/vnf_lcm_op_occs/$op/retry" -H "$V" >/dev/null ;;
      ROLLED_BACK) echo "op occ ROLLED_BACK (its worker died before any change): instantiating again"
        op=$(curl -fsS -D - -o /dev/null -X POST "$LB/vnflcm/v2/vnf_instances/$inst/instantiate" -H "$V" -H "$J" \
          -d '{"flavourId":"simple"}' | tr -d '\r' | sed -n 's/^[Ll]ocation: .*\///p') ;;
      FAILED) break ;;
    esac
    sleep 0.3
  done
  echo "op occ $op $state"
  [ "$state" = COMPLETED ]
}

stop() {
  for f in haproxy replica1 replica2 replica3 moto; do
    if alive "$DIR/$f.pid"; then kill "$(cat "$DIR/$f.pid")" 2>/dev/null || true; fi
  done
  for f in haproxy replica1 replica2 replica3 moto; do
    for _ in $(seq 1 100); do alive "$DIR/$f.pid" || break; sleep 0.1; done
    if alive "$DIR/$f.pid"; then kill -9 "$(cat "$DIR/$f.pid")" 2>/dev/null || true; fi
  done
  if [ -d "$DIR/pg" ]; then as_pg "$(pg_bin)/pg_ctl" -D "$DIR/pg" -m fast -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$DIR"
  echo "stopped"
}

case ${1:-} in
  start) start ;;
  demo) demo ;;
  stop) stop ;;
  *) echo "usage: $0 start|demo|stop" >&2; exit 2 ;;
esac
