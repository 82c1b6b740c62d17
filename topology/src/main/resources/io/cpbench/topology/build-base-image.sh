#!/usr/bin/env bash
# Builds cp-bench's container base image, a Debian bookworm with a JRE 17 and iproute2 (for tc), from Debian's
# packages alone: no image registry is needed (docs/hazelcast-facts.md, "Docker and Testcontainers without a registry").
#   bash build-base-image.sh [IMAGE]          default IMAGE: cpbench-jre17:local
# cp-bench runs it (from its jar) when the image is missing. Needs root, debootstrap and a running Docker engine.
# Took 60 s here. CPBENCH_DEBIAN_MIRROR overrides the mirror (default: the one apt uses).
set -euo pipefail
image="${1:-cpbench-jre17:local}"
mirror="${CPBENCH_DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
  # The mirror apt already uses (deb822 or one-line sources), else Debian's own.
  mirror="$(grep -hoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | sed 's/^URIs: *//' || true)"
  [[ -z "$mirror" ]] && mirror="$(grep -hoE '^deb +[^ ]+' /etc/apt/sources.list 2>/dev/null | grep -v security | head -1 | awk '{print $2}' || true)"
  [[ -z "$mirror" ]] && mirror="http://deb.debian.org/debian"
fi
command -v debootstrap >/dev/null || { echo "build-base-image: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 2; }
command -v docker >/dev/null || { echo "build-base-image: docker is not installed" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "build-base-image: debootstrap needs root" >&2; exit 2; }
# One build per machine at a time: a caller that finds another build under way waits for it (CI starts one before the
# tests, which may want the image before it is done), then uses the image that build made. The lock is in /run, where
# only root creates files: in the shared /tmp another user could put a link at its name for root to open (and, with
# '>', truncate its target). It is opened for appending, never truncated.
[[ -d /run && -w /run ]] || { echo "build-base-image: /run is not a directory root can write (the build's lock lives there)" >&2; exit 2; }
exec 9>>/run/cpbench-build-base-image.lock
if ! flock -n 9; then
  echo "build-base-image: another build of the base image is under way; waiting for it"
  flock 9
fi
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "build-base-image: $image is there (built meanwhile)"
  exit 0
fi
root="$(mktemp -d /tmp/cpbench-rootfs.XXXXXX)"
log="$(mktemp /tmp/cpbench-debootstrap.XXXXXX.log)" # made by mktemp (0600, new), not at a name others can guess
trap 'rm -rf "$root"' EXIT
start=$(date +%s)
echo "build-base-image: debootstrap bookworm from $mirror into $root"
debootstrap --variant=minbase --include=openjdk-17-jre-headless,iproute2,procps bookworm "$root" "$mirror" >"$log" 2>&1 \
  || { echo "build-base-image: debootstrap failed; last lines of $log:" >&2; tail -5 "$log" >&2; exit 1; }
rm -f "$log"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/*
java_home="$(dirname "$(dirname "$(chroot "$root" readlink -f /usr/bin/java)")")"
tar -C "$root" -c . | docker import --change "ENV JAVA_HOME=$java_home" --change "ENV PATH=$java_home/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change 'LABEL io.cpbench.image=base' - "$image" >/dev/null
echo "build-base-image: $image built in $(( $(date +%s) - start )) s ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1e6}'))"
