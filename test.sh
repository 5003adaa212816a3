#!/usr/bin/env bash
# Every test, on a fresh machine: installs the Debian packages the tests start for real
# (kubectl, tmux, Prometheus, PostgreSQL) when they are missing, then runs `cargo test`.
# Extra arguments go to `cargo test` (e.g. `./test.sh --test it sim_kube::`).
#
# Installing needs root (or password-less sudo). Without it, this prints the exact command
# to run and stops, rather than letting a dozen tests fail one by one.
set -euo pipefail
cd "$(dirname "$0")"

# command → Debian package that provides it.
declare -A wanted=(
    [kubectl]=kubernetes-client
    [tmux]=tmux
    [prometheus]=prometheus
    [psql]=postgresql
)
missing=()
for cmd in "${!wanted[@]}"; do
    command -v "$cmd" >/dev/null 2>&1 || missing+=("${wanted[$cmd]}")
done
# The server binaries live outside PATH on Debian (/usr/lib/postgresql/N/bin).
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && ! command -v initdb >/dev/null 2>&1; then
    [[ " ${missing[*]} " == *" postgresql "* ]] || missing+=(postgresql)
fi

if [ ${#missing[@]} -gt 0 ]; then
    install=(apt-get install -y --no-install-recommends "${missing[@]}")
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
    else
        echo "The tests need these Debian packages: ${missing[*]}" >&2
        echo "Install them with:" >&2
        echo "    sudo apt-get update && sudo ${install[*]}" >&2
        exit 2
    fi
    echo "installing: ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" "${install[@]}" -qq >/dev/null
fi

exec cargo test "$@"
