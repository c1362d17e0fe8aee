#!/usr/bin/env bash
# The VIM steps of the Tacker client flow: the real python-tackerclient registers, lists, shows,
# changes and deletes an OpenStack VIM through Tacker's legacy /v1.0/vims on a running Bosun, with
# the real mini-openstack's credentials (from its openrc), so that registration is checked against
# the real Keystone and Nova. Usage: tackerclient-vim-flow.sh BASE_URL. Prints `ok STEP`,
# `skip STEP: why` or `FAIL STEP: why`, stops at the first failure (deleting the VIM it
# registered) and ends with "N passed, M failed, K skipped"; exit 0 without failures.
# Without mini-openstack (no $MINI_OPENSTACK_OPENRC, default /tmp/mini-openstack/openrc, or no
# ready mark beside it), or when the server serves no OpenStack driver (it refuses the VIM type
# itself), every step is skipped, and counted so, with the reason.
set -uo pipefail
base=${1:?usage: tackerclient-vim-flow.sh BASE_URL}
openrc=${MINI_OPENSTACK_OPENRC:-/tmp/mini-openstack/openrc}
ready="$(dirname "$openrc")/run/ready"
steps=(vim-register vim-register-wrong-password vim-list vim-show vim-set vim-set-credentials vim-delete)
pass=0 failed=0 skipped=0

if [ ! -f "$openrc" ] || [ ! -f "$ready" ]; then
  for s in "${steps[@]}"; do echo "skip $s: mini-openstack is not up ($ready missing)"; skipped=$((skipped + 1)); done
  echo "$pass passed, $failed failed, $skipped skipped"
  exit 0
fi

# The cloud's credentials, read (not sourced: OS_* variables would send the client to Keystone).
os_var() { sed -n "s/^export $1=['\"]\{0,1\}\([^'\"]*\)['\"]\{0,1\}$/\1/p" "$openrc" | tail -n 1; }
auth_url=$(os_var OS_AUTH_URL) user=$(os_var OS_USERNAME) password=$(os_var OS_PASSWORD)
project=$(os_var OS_PROJECT_NAME) project_domain=$(os_var OS_PROJECT_DOMAIN_NAME) user_domain=$(os_var OS_USER_DOMAIN_NAME)
for v in $(env | sed -n 's/^\(OS_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

work=$(mktemp -d /tmp/bosun-vim-flow.XXXXXX)
trap 'rm -rf "$work"' EXIT
name="bosun-flow-vim-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"
yaml() { # yaml FILE PASSWORD: a vim.yaml as Tacker's documentation writes it
  cat >"$1" <<YAML
auth_url: '$auth_url'
username: '$user'
password: '$2'
project_name: '$project'
project_domain_name: '$project_domain'
user_domain_name: '$user_domain'
cert_verify: 'True'
YAML
}
yaml "$work/vim.yaml" "$password"
yaml "$work/wrong.yaml" "not-the-password"

osc() { openstack --os-auth-type none --os-endpoint "$base" "$@" >"$work/out" 2>"$work/err" </dev/null; }
# field KEY: a field of the last `-f json` answer (objects as JSON).
field() {
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print(v if isinstance(v,str) else json.dumps(v))' "$work/out" "$1" 2>/dev/null
}
why=""
check() { # check DESCRIPTION TEST...
  local what=$1; shift
  "$@" || { why=$what; return 1; }
}
no_password() { ! grep -qF -- "$password" "$work/out" "$work/err"; }

vim_register() {
  if ! osc vim register --config-file "$work/vim.yaml" --is-default --description 'Tacker client flow' "$name" -f json; then
    # A Bosun without the OpenStack driver refuses the type itself: nothing here can run.
    grep -q '^No driver serves VIM type ETSINFV.OPENSTACK_KEYSTONE.V_3' "$work/err" && return 2
    why="client exited non-zero: $(tail -n 1 "$work/err")"
    return 1
  fi
  check "is_default is $(field is_default), not true" test "$(field is_default)" = true &&
    check "status is $(field status), not REACHABLE" test "$(field status)" = REACHABLE &&
    check "placement_attr $(field placement_attr) lacks az1 and az2" grep -q '"az1".*"az2"' <(field placement_attr | tr -d '\n ') &&
    check 'the answer carries the password' no_password
}
vim_register_wrong_password() {
  if osc vim register --config-file "$work/wrong.yaml" "$name-wrong" -f json; then
    why='registered with a wrong password'
    return 1
  fi
  check "the error does not name Keystone's 401: $(tail -n 1 "$work/err")" grep -q 'Keystone token request failed (HTTP 401)' "$work/err" &&
    osc vim list -f json && check 'the refused VIM was stored' bash -c "! grep -qF -- '$name-wrong' '$work/out'"
}
vim_list() {
  osc vim list -f json || { why="client exited non-zero: $(tail -n 1 "$work/err")"; return 1; }
  check "$name is not listed as the default" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
sys.exit(0 if any(r["Name"] == sys.argv[2] and r["Is Default"] for r in rows) else 1)' "$work/out" "$name" &&
    check 'the list carries the password' no_password
}
vim_show() {
  osc vim show "$name" -f json || { why="client exited non-zero: $(tail -n 1 "$work/err")"; return 1; }
  check "auth_url is $(field auth_url)" test "$(field auth_url)" = "$auth_url" &&
    check "type is $(field type), not openstack" test "$(field type)" = openstack &&
    check "auth_cred $(field auth_cred) does not name $user" grep -qF "\"$user\"" <(field auth_cred) &&
    check 'show carries the password' no_password
}
vim_set() {
  osc vim set "$name" --description 'changed by the flow' --is-default False -f json ||
    { why="client exited non-zero: $(tail -n 1 "$work/err")"; return 1; }
  check "description is $(field description)" test "$(field description)" = 'changed by the flow' &&
    check "is_default is $(field is_default), not false" test "$(field is_default)" = false
}
vim_set_credentials() {
  # A wrong password is checked against Keystone and refused; the stored one stays.
  if osc vim set "$name" --config-file "$work/wrong.yaml" -f json; then
    why='a wrong password replaced the stored one'
    return 1
  fi
  check "the error does not name Keystone's 401: $(tail -n 1 "$work/err")" grep -q 'HTTP 401' "$work/err" &&
    osc vim set "$name" --config-file "$work/vim.yaml" -f json &&
    check "status is $(field status) after the right credentials" test "$(field status)" = REACHABLE
}
vim_delete() {
  osc vim delete "$name" || { why="client exited non-zero: $(tail -n 1 "$work/err")"; return 1; }
  if osc vim show "$name" -f json; then
    why='still shown after delete'
    return 1
  fi
}

for s in "${steps[@]}"; do
  why=""
  "${s//-/_}"
  rc=$?
  if [ "$rc" = 2 ]; then
    for left in "${steps[@]:$((pass + skipped))}"; do
      echo "skip $left: this Bosun serves no OpenStack driver ($(tail -n 1 "$work/err"))"
      skipped=$((skipped + 1))
    done
    break
  elif [ "$rc" = 0 ]; then
    echo "ok $s"
    pass=$((pass + 1))
  else
    echo "FAIL $s: ${why:-failed}"
    failed=$((failed + 1))
    osc vim delete "$name" || true
    break
  fi
done
echo "$pass passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
