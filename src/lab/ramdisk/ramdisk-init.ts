/**
 * The scripts of the deploy ramdisk, run by busybox `sh`: `/init` (PID 1), the udhcpc hook that
 * configures a leased address, and the ACPI power button action.
 *
 * /init mounts /proc, /sys and /dev (CONFIG_DEVTMPFS_MOUNT is off in Debian's kernel, so nothing else
 * does), loads the drivers listed in {@link RAMDISK_MODULES_FILE} in order, brings every Ethernet
 * interface up and asks DHCP for an address on all of them at once, starts `acpid` for the power
 * button, writes a minimal udev database from sysfs (serial numbers and WWNs: `lsblk` reads them only
 * from udev, and root device hints match on them), then runs the agent (`node /ingot-agent.cjs`, which
 * reads /proc/cmdline itself) with its output on the console. When the agent exits the machine powers
 * off. The kernel parameter `ingot.shell` starts a console shell instead of the agent, for debugging.
 *
 * NOTE: PID 1 is a shell, not an init, so busybox `poweroff`, `reboot` and `halt` (which signal PID 1:
 * SIGUSR2, SIGTERM, SIGUSR1, as busybox init expects) are trapped here and turned into the forced
 * forms; the agent's poweroff and reboot commands run those programs. The agent runs in the background
 * while PID 1 `wait`s, because a shell runs a trap only once its foreground command has finished.
 */

/** Where the ramdisk lists its modules, one path relative to /lib/modules/<release> a line, in load order. */
export const RAMDISK_MODULES_FILE = '/etc/ingot/modules';

/** Where the agent bundle lives in the ramdisk. */
export const RAMDISK_AGENT_PATH = '/ingot-agent.cjs';

/** The udhcpc hook script's path. */
export const UDHCPC_SCRIPT_PATH = '/etc/udhcpc/default.script';

/**
 * Kernel parameters a ramdisk boot line should carry besides the agent's `ipa-*` ones:
 * `console=ttyS0` (the serial console; /init and the agent write to /dev/console, which is the last
 * `console=`), and `no_timer_check` (QEMU TCG guests sometimes panic in the IO-APIC timer check when
 * the host is busy). The boot interface owns the command line; this is the advice.
 */
export const RAMDISK_KERNEL_PARAMS = 'console=ttyS0 no_timer_check';

/** Seconds /init waits for a DHCP lease on any interface before starting the agent anyway. */
export const DHCP_WAIT_S = 30;

/** The `/init` script. `release` is the kernel release the modules belong to. */
export function ramdiskInitScript(release: string): string {
  return `#!/bin/sh
# Ingot deploy ramdisk: PID 1. Kernel parameters: ${RAMDISK_KERNEL_PARAMS} ipa-… (read by the agent).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=linux
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm /run /tmp /var/log /var/run /root
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
log() { read -r up _ < /proc/uptime; echo "ingot-ramdisk: [$up] $*"; }
off() { log "$1"; sync; poweroff -f; sleep 5; echo o > /proc/sysrq-trigger; }
trap 'off "poweroff requested"' USR2
trap 'off "halt requested"' USR1
trap 'log "reboot requested"; sync; reboot -f' TERM
log "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU(s), $(sed -n 's/^MemTotal: *//p' /proc/meminfo) memory"

while read -r module; do
  [ -n "$module" ] && { insmod "/lib/modules/${release}/$module" || log "insmod $module failed"; }
done < ${RAMDISK_MODULES_FILE}

hostname ingot-ramdisk
ip link set lo up
ifaces=""
for dev in /sys/class/net/*; do
  name=\${dev##*/}
  # type 1 is ARPHRD_ETHER: Ethernet, not loopback or tunnels.
  [ "$(cat "$dev/type" 2>/dev/null)" = 1 ] || continue
  ip link set "$name" up && ifaces="$ifaces $name"
done
for name in $ifaces; do
  udhcpc -i "$name" -s ${UDHCPC_SCRIPT_PATH} -b -t 10 -T 3 -p "/run/udhcpc.$name.pid" >/dev/null 2>&1 &
done
waited=0
until [ -z "$ifaces" ] || ip -4 route show default 2>/dev/null | grep -q . || [ "$waited" -ge ${DHCP_WAIT_S * 10} ]; do
  sleep 0.1
  waited=$((waited + 1))
done
[ -z "$ifaces" ] && log "no Ethernet interface found"
for name in $ifaces; do log "$name $(cat /sys/class/net/$name/address) $(ip -4 -o addr show dev "$name" | awk '{print $4}')"; done

acpid -c /etc/acpi -l /var/log/acpid.log

# No udev here: write what its database would hold for lsblk (serial numbers, NAA WWNs) from sysfs.
# Disks appear by now (the DHCP wait outlasts SCSI and ATA probing).
mkdir -p /run/udev/data
for b in /sys/class/block/*; do
  [ -f "$b/dev" ] && [ ! -f "$b/partition" ] || continue
  serial=$(cat "$b/serial" 2>/dev/null || cat "$b/device/serial" 2>/dev/null)
  wwid=$(cat "$b/device/wwid" 2>/dev/null)
  {
    [ -n "$serial" ] && printf 'E:ID_SERIAL=%s\nE:ID_SERIAL_SHORT=%s\n' "$serial" "$serial"
    case "$wwid" in naa.*) printf 'E:ID_WWN=0x%s\nE:ID_WWN_WITH_EXTENSION=0x%s\n' "\${wwid#naa.}" "\${wwid#naa.}" ;; esac
  } > "/run/udev/data/b$(cat "$b/dev")"
done

if grep -qw ingot.shell /proc/cmdline; then
  log "ingot.shell: starting a shell on the console instead of the agent"
  setsid cttyhack sh
  off "shell exited"
fi
log "starting the agent"
node ${RAMDISK_AGENT_PATH} &
agent=$!
while :; do
  wait "$agent"
  rc=$?
  # wait returns above 128 when a trapped signal interrupted it; the agent may still run.
  kill -0 "$agent" 2>/dev/null || break
done
off "agent exited with status $rc"
`;
}

/**
 * The udhcpc hook (busybox calls it with `deconfig`, `bound`, `renew`, `leasefail`, `nak` and the
 * lease in the environment): sets the address, a default route per interface (metric by interface
 * index, so two NICs do not collide) and /etc/resolv.conf.
 */
export function udhcpcScript(): string {
  return `#!/bin/sh
# udhcpc hook of the Ingot deploy ramdisk.
case "$1" in
  deconfig)
    ip -4 addr flush dev "$interface"
    ip link set "$interface" up
    ;;
  bound|renew)
    ip -4 addr flush dev "$interface"
    ip -4 addr add "$ip/\${mask:-24}" \${broadcast:+broadcast "$broadcast"} dev "$interface"
    metric=$((100 + $(cat /sys/class/net/$interface/ifindex)))
    for r in $router; do
      ip -4 route replace default via "$r" dev "$interface" metric "$metric"
      break
    done
    if [ -n "$dns" ]; then
      : > /etc/resolv.conf.new
      [ -n "$domain" ] && echo "search $domain" >> /etc/resolv.conf.new
      for s in $dns; do echo "nameserver $s" >> /etc/resolv.conf.new; done
      mv /etc/resolv.conf.new /etc/resolv.conf
    fi
    [ -n "$hostname" ] && hostname "$hostname"
    echo "ingot-ramdisk: $interface $1 $ip/\${mask:-24}\${router:+ via $router}" > /dev/console
    ;;
esac
exit 0
`;
}

/**
 * busybox acpid runs `/etc/acpi/PWRF/00000080` for the power button (event PWRF): power off through
 * PID 1, as a BMC's soft power off expects.
 */
export function acpiPowerButtonScript(): string {
  return `#!/bin/sh
echo "ingot-ramdisk: power button pressed" > /dev/console
kill -USR2 1
`;
}

/** Small files the programs expect in /etc. */
export function ramdiskEtcFiles(): Record<string, string> {
  return {
    '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\n',
    '/etc/group': 'root:x:0:\n',
    '/etc/hosts': '127.0.0.1 localhost\n::1 localhost\n',
    '/etc/nsswitch.conf': 'passwd: files\ngroup: files\nhosts: files dns\n',
    '/etc/resolv.conf': '',
  };
}
