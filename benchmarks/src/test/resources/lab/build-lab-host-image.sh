#!/usr/bin/env bash
# Builds the image that stands in for an AWS lab instance (a Debian AMI) in the lab's rehearsal: Debian bookworm
# booting systemd, with sshd, sudo, iptables and the packages the lab's user data installs, and the AMI's admin user
# with passwordless sudo (as cloud-init makes it on Debian's AMIs). From Debian's packages alone (debootstrap, then
# docker import): no registry.   bash build-lab-host-image.sh [IMAGE]   default IMAGE: cpbench-lab-host:local
# The user data's 'apt-get update' and 'apt-get install' find the packages here: apt-get in the image is a shim that
# checks each named package is installed instead of reaching a mirror from the container.
set -euo pipefail
image="${1:-cpbench-lab-host:local}"
mirror="${CPBENCH_DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
  mirror="$(grep -hoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep debian | grep -v security | head -1 | sed 's/^URIs: *//' || true)"
  [[ -z "$mirror" ]] && mirror="$(grep -hoE '^deb +[^ ]+' /etc/apt/sources.list 2>/dev/null | grep debian | grep -v security | head -1 | awk '{print $2}' || true)"
  [[ -z "$mirror" ]] && mirror="http://deb.debian.org/debian"
fi
command -v debootstrap >/dev/null || { echo "build-lab-host-image: debootstrap is not installed" >&2; exit 2; }
command -v docker >/dev/null || { echo "build-lab-host-image: docker is not installed" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "build-lab-host-image: debootstrap needs root" >&2; exit 2; }
[[ -d /run && -w /run ]] || { echo "build-lab-host-image: /run is not a directory root can write (the build's lock lives there)" >&2; exit 2; }
exec 9>>/run/cpbench-build-lab-host-image.lock
flock 9
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "build-lab-host-image: $image is there"
  exit 0
fi
root="$(mktemp -d /tmp/cpbench-labfs.XXXXXX)"
log="$(mktemp /tmp/cpbench-labfs.XXXXXX.log)"
trap 'rm -rf "$root"' EXIT
start=$(date +%s)
echo "build-lab-host-image: debootstrap bookworm from $mirror"
debootstrap --variant=minbase \
  --include=systemd,systemd-sysv,dbus,openssh-server,sudo,iptables,iproute2,procps,openjdk-17-jre-headless,kmod \
  bookworm "$root" "$mirror" >"$log" 2>&1 \
  || { echo "build-lab-host-image: debootstrap failed; last lines of $log:" >&2; tail -5 "$log" >&2; exit 1; }
rm -f "$log"
chroot "$root" useradd -m -s /bin/bash admin
install -d -m 700 "$root/home/admin/.ssh"
chroot "$root" chown admin:admin /home/admin/.ssh
echo 'admin ALL=(ALL) NOPASSWD:ALL' > "$root/etc/sudoers.d/90-cloud-init-users"
chmod 440 "$root/etc/sudoers.d/90-cloud-init-users"
cat > "$root/usr/local/sbin/apt-get" <<'SHIM'
#!/bin/bash
# The lab rehearsal's stand-in for apt-get: the image holds the packages the user data asks for; no mirror is reached.
case "${1:-}" in
  update) echo "lab stand-in: apt-get update skipped (the packages are in the image)"; exit 0 ;;
  install)
    shift
    for p in "$@"; do
      [[ "$p" == -* ]] && continue
      dpkg -s "$p" >/dev/null 2>&1 || { echo "lab stand-in: package $p is not in the image" >&2; exit 100; }
    done
    echo "lab stand-in: $* installed already" ;;
  *) exec /usr/bin/apt-get "$@" ;;
esac
SHIM
chmod 755 "$root/usr/local/sbin/apt-get"
# each host its own SSH host keys, made at its first boot (as on an instance), not baked into the image
rm -f "$root"/etc/ssh/ssh_host_*
mkdir -p "$root/etc/systemd/system/ssh.service.d"
printf '[Service]\nExecStartPre=\nExecStartPre=/usr/bin/ssh-keygen -A\nExecStartPre=/usr/sbin/sshd -t\n' \
  > "$root/etc/systemd/system/ssh.service.d/host-keys.conf"
echo 'LANG=C.UTF-8' > "$root/etc/default/locale"
# units that have nothing to do in a container
for unit in systemd-udevd.service systemd-udev-trigger.service getty@tty1.service systemd-logind.service \
            systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer; do
  ln -sf /dev/null "$root/etc/systemd/system/$unit"
done
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/*
tar -C "$root" -c . | docker import --change 'ENV container=docker' \
  --change 'CMD ["/lib/systemd/systemd"]' --change 'LABEL io.cpbench.image=lab-host' - "$image" >/dev/null
echo "build-lab-host-image: $image built in $(( $(date +%s) - start )) s"
