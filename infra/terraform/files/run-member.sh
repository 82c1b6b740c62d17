#!/usr/bin/env bash
# Runs the member command that 'cpbench lab member-commands' wrote for this host, argument for argument: the same
# command the local topology runs for a member. The lab's systemd unit runs this; the tests run it on loopback.
set -euo pipefail
argv_file="${1:-/opt/cpbench/member.argv}"
if [[ ! -s "$argv_file" ]]; then
  echo "run-member: $argv_file is missing or empty; the lab loop writes it (infra/lab/cpbench-lab)" >&2
  exit 2
fi
mapfile -t argv < "$argv_file"
exec "${argv[@]}"
