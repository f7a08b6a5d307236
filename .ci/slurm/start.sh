#!/usr/bin/env bash
# Start a one-node Slurm cluster (munged, slurmctld, slurmd) whose every file lives in DIR.
#
#   out=$(.ci/slurm/start.sh DIR); rc=$?
#   rc 0: $out is `export SLURM_CONF=DIR/slurm.conf` (eval it)
#   rc 3: $out is one line `SKIPPED: <reason>` (Slurm cannot run here; nothing is left running)
#   rc 2: usage error
#
# Installs nothing (CI runs `apt-get install -y slurm-wlm munge` first). Needs root: the
# daemons run as root (SlurmUser=root) and munged as the `munge` user with the packaged key
# /etc/munge/munge.key (created with mungekey if missing - the only file written outside DIR).
# Idempotent: when DIR's daemons already run and the node answers, it only prints the export.
# Progress and daemon logs go to stderr; stop with .ci/slurm/stop.sh DIR.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
template=$here/slurm.conf.in
timeout_s=${SLURM_START_TIMEOUT:-30}

skip() {
  echo "SKIPPED: $*"
  [[ -n ${dir:-} && -f $dir/slurm.conf ]] && "$here/stop.sh" "$dir" >&2 2>&1
  exit 3
}
log() { echo "start.sh: $*" >&2; }

(($# == 1)) || { echo "usage: start.sh STATE_DIR" >&2; exit 2; }

# --- what this machine must have ---------------------------------------------------------
[[ $(uname -s) == Linux ]] || skip "not Linux"
(($(id -u) == 0)) || skip "needs root (slurmd runs jobs as root here; uid is $(id -u))"
for cmd in munged munge unmunge slurmctld slurmd sbatch sinfo squeue scontrol scancel runuser; do
  command -v "$cmd" >/dev/null || skip "$cmd not found (apt-get install -y slurm-wlm munge)"
done
id munge >/dev/null 2>&1 || skip "no 'munge' user (is the munge package installed?)"
[[ -r $template ]] || skip "template $template missing"

key=/etc/munge/munge.key
if [[ ! -s $key ]]; then
  log "no $key: creating one"
  if command -v mungekey >/dev/null; then
    mungekey --create --keyfile="$key" >&2 || skip "mungekey could not create $key"
  elif command -v create-munge-key >/dev/null; then
    create-munge-key -f >&2 || skip "create-munge-key could not create $key"
  else
    skip "no munge key and neither mungekey nor create-munge-key"
  fi
  chown munge:munge "$key" && chmod 0400 "$key" || skip "cannot chown $key to munge"
fi

mkdir -p "$1" || skip "cannot create $1"
dir=$(cd "$1" && pwd -P)
conf=$dir/slurm.conf
sock=$dir/munge/munge.socket.2
export SLURM_CONF=$conf
host=$(hostname -s)
[[ -n $host ]] || skip "hostname -s is empty"

# pid from a pid file, if that process runs and is the named program
alive() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]]
}
node_state() { sinfo -h -N -n "$host" -o '%T' 2>/dev/null | head -n 1; }

# --- already running? ---------------------------------------------------------------------
if [[ -f $conf ]] && alive "$dir/munge/munged.pid" munged && alive "$dir/slurmctld.pid" slurmctld \
   && alive "$dir/slurmd.pid" slurmd && [[ $(node_state) =~ ^(idle|mixed|allocated|completing) ]]; then
  log "already running in $dir"
  echo "export SLURM_CONF=$conf"
  exit 0
fi
[[ -f $conf ]] && "$here/stop.sh" "$dir" >&2   # half-started or stale: start afresh

# --- ports --------------------------------------------------------------------------------
# Local ports in use, any state, IPv4 and IPv6 (column 2 of /proc/net/tcp*, hex after ':').
used_ports() {
  awk 'FNR > 1 { split($2, a, ":"); print strtonum("0x" a[2]) }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
pick_port() {
  local p tries
  for ((tries = 0; tries < 200; tries++)); do
    p=$((20000 + RANDOM % 30000))
    grep -qx "$p" <<<"$(used_ports)" || [[ " $* " == *" $p "* ]] || { echo "$p"; return 0; }
  done
  return 1
}
# gawk's strtonum; mawk lacks it, so fall back to bash arithmetic.
if ! awk 'BEGIN { strtonum("0x10") }' 2>/dev/null; then
  used_ports() {
    local line
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | while read -r _ local _; do
      [[ $local == *:* ]] && echo $((16#${local##*:}))
    done
  }
fi
ctld_port=$(pick_port) || skip "no free TCP port"
slurmd_port=$(pick_port "$ctld_port") || skip "no free TCP port"

# --- slurm.conf ---------------------------------------------------------------------------
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
# A fresh start: no job state or step sockets of an earlier cluster in this folder.
rm -rf "$dir/ctld" "$dir/slurmd" "$dir/probe.out"
mkdir -p "$dir/ctld" "$dir/slurmd" "$dir/munge" || skip "cannot create folders in $dir"
sed -e "s|@HOST@|$host|g" -e "s|@DIR@|$dir|g" -e "s|@CPUS@|$cpus|g" -e "s|@MEM@|$mem|g" \
    -e "s|@CTLD_PORT@|$ctld_port|g" -e "s|@SLURMD_PORT@|$slurmd_port|g" "$template" >"$conf" \
  || skip "cannot write $conf"
log "slurm.conf: host $host, $cpus CPUs, ${mem} MiB, ports $ctld_port/$slurmd_port"

# --- munged -------------------------------------------------------------------------------
# munged insists: socket folder owned by its user, searchable by all (0711), not writable by others.
# DIR itself must be searchable by the munge user (mktemp -d makes 0700 folders), and so must
# every folder above it.
chown munge:munge "$dir/munge" && chmod 0711 "$dir/munge" && chmod go+x "$dir" || skip "cannot chown $dir/munge"
runuser -u munge -- test -x "$dir/munge" \
  || skip "user munge cannot reach $dir/munge: every folder above it needs o+x"
rm -f "$sock" "$sock.lock"
err=$(runuser -u munge -- munged --socket="$sock" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" 2>&1) \
  || skip "munged failed: $(tail -n 1 <<<"$err")"
for ((i = 0; i < 50; i++)); do
  munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1 && break
  sleep 0.1
done
((i < 50)) || skip "munged does not answer on $sock"

# --- slurmctld, slurmd --------------------------------------------------------------------
# Why a daemon died: its first fatal line, else its last error (slurmd always logs errors
# about the mpi/pmix plugins, which do not matter here).
why() { { grep -m1 -i 'fatal' "$1" || grep -i 'error' "$1" | grep -v -i pmix | tail -n 1; } 2>/dev/null | cut -c1-200; }
err=$(slurmctld -c -f "$conf" 2>&1) || skip "slurmctld failed: $(tail -n 1 <<<"$err") $(why "$dir/slurmctld.log")"
err=$(slurmd -f "$conf" 2>&1) || skip "slurmd failed: $(tail -n 1 <<<"$err") $(why "$dir/slurmd.log")"

start=$SECONDS
state=
while ((SECONDS - start < timeout_s)); do
  state=$(node_state)
  [[ $state == idle ]] && break
  # slurmd/slurmctld exit on fatal errors: no use waiting
  alive "$dir/slurmctld.pid" slurmctld || { sleep 0.5; alive "$dir/slurmctld.pid" slurmctld; } \
    || skip "slurmctld exited: $(why "$dir/slurmctld.log")"
  alive "$dir/slurmd.pid" slurmd || { sleep 0.5; alive "$dir/slurmd.pid" slurmd; } \
    || skip "slurmd exited: $(why "$dir/slurmd.log")"
  sleep 0.2
done
if [[ $state != idle ]]; then
  tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null
  skip "node $host not idle after ${timeout_s}s (state '${state:-no answer}'; logs in $dir)"
fi
log "node $host idle after $((SECONDS - start))s"

# An idle node does not prove that jobs run (slurmstepd, munge credentials, the spool): run one.
probe=$(sbatch --parsable -o "$dir/probe.out" -J probe --wrap 'echo "probe ok on $(hostname -s)"' 2>&1) \
  || skip "sbatch failed: $probe"
while ((SECONDS - start < timeout_s)) && [[ -n $(squeue -h -j "$probe" 2>/dev/null) ]]; do sleep 0.1; done
grep -q '^probe ok' "$dir/probe.out" 2>/dev/null \
  || skip "a probe job did not run within ${timeout_s}s ($(scontrol show job "$probe" 2>/dev/null | grep -oE 'JobState=\S+ Reason=\S+' || echo 'no job state'); logs in $dir)"
log "probe job $probe ran; ready after $((SECONDS - start))s"
echo "export SLURM_CONF=$conf"
