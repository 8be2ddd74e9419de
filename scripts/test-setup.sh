#!/usr/bin/env bash
# Prepares a Debian 12 machine (as root) for Ingot's tests: installs what is missing of PostgreSQL,
# Debian's real OpenStack clients (the compatibility tests drive Ingot with them), the BMC peers
# (ipmitool and ipmi_sim drive and answer Ingot's IPMI, python3-sushy drives its Redfish emulator), the real
# ironic-inspector (the `inspector` inspect interface delegates to it), python3-jsonschema (the errors of
# Ironic's jsonschema checks are compared with it), python3-oslo.utils (secret masking is compared with its
# strutils.mask_password) and
# QEMU with its firmware (the qemu machine back-end) and what the lab builds ramdisks and disk images with
# (busybox, lz4, binutils, kmod, syslinux, mtools, dosfstools), and the Python packages sushy-tools' emulator runs
# on for `npm run test:peers` (its source comes from INGOT_SUSHY_TOOLS_DIR), then starts PostgreSQL with the role
# the storage tests use. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

wanted=(postgresql python3-ironicclient python3-openstackclient python3-openstacksdk python3-ironic-inspector-client
  python3-ironic-inspector python3-jsonschema ipmitool openipmi python3-sushy qemu-system-x86 qemu-utils ovmf
  genisoimage xorriso python3-pycdlib dnsmasq-base busybox-static tftp-hpa fdisk gdisk
  ipxe-qemu syslinux syslinux-common pxelinux mtools dosfstools lz4 binutils kmod iproute2
  python3-flask python3-requests python3-tenacity python3-ironic-lib python3-bcrypt
  python3-oslo.utils)
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test-setup: installing ${missing[*]}"
  apt-get update -o DPkg::Lock::Timeout=300
  apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}"
fi
# The lab's ramdisk builder downloads Debian's kernel package with apt-get: it needs the package lists.
apt-cache show linux-image-amd64 >/dev/null 2>&1 || apt-get update -o DPkg::Lock::Timeout=300
for bin in /usr/bin/baremetal /usr/bin/openstack /usr/bin/ipmitool /usr/bin/ipmi_sim /usr/bin/qemu-system-x86_64; do
  test -x "$bin" || { echo "test-setup: $bin is missing after the install" >&2; exit 1; }
done
/usr/bin/python3 -c 'import openstack, ironicclient, sushy; print("test-setup: openstacksdk", openstack.version.__version__)'

bash scripts/start-postgres.sh
