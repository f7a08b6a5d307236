#!/usr/bin/env bash
# Stop the cluster that start.sh DIR started: end its jobs, then slurmd, slurmctld and munged,
# each by the pid in its pid file (and only if that pid is still that program).
# Idempotent; DIR (logs, slurm.conf) is kept - remove it yourself. Exits 0 unless misused.
#
# Jobs: `scancel` (even `scancel --signal=KILL --full`) only starts Slurm's graceful end -
# SIGCONT+SIGTERM, SIGKILL KillWait (30 s) later - so after a grace of 1 s this kills what is
# left of each job itself (then the slurmstepd, which otherwise lingers for ~8 s): the process tree under each slurmstepd of this cluster (a
# slurmstepd of ours is one with a file open under DIR). A job process that left the tree
# (its parent died, it was reparented to init) is out of reach: proctrack/linuxproc loses it
# too.
set -uo pipefail
(($# == 1)) || { echo "usage: stop.sh STATE_DIR" >&2; exit 2; }
[[ -d $1 ]] || exit 0
dir=$(cd "$1" && pwd -P)
export SLURM_CONF=$dir/slurm.conf

alive_pid() { # pidfile name -> pid, if that process runs and is that program
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]] && echo "$pid"
}

our_stepds() { # slurmstepd processes with a file open under $dir
  local p
  for p in /proc/[0-9]*; do
    [[ $(cat "$p/comm" 2>/dev/null) == slurmstepd ]] || continue
    if find "$p/fd" -maxdepth 1 -lname "$dir/*" 2>/dev/null | grep -q .; then echo "${p#/proc/}"; fi
  done
}

descendants() { # PID... -> every descendant, children before their parents' siblings
  local -A kids=()
  local stat line rest pid ppid queue=("$@")
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$stat" || continue
    pid=${stat#/proc/}; pid=${pid%/stat}
    rest=${line##*) }            # fields after "(comm)": state ppid ...
    ppid=${rest#* }; ppid=${ppid%% *}
    kids[$ppid]+=" $pid"
  done
  while ((${#queue[@]})); do
    pid=${queue[0]}; queue=("${queue[@]:1}")
    for ppid in ${kids[$pid]:-}; do echo "$ppid"; queue+=("$ppid"); done
  done
}

if [[ -f $SLURM_CONF ]] && alive_pid "$dir/slurmctld.pid" slurmctld >/dev/null; then
  mapfile -t jobs < <(squeue -h -o '%A' 2>/dev/null)
  ((${#jobs[@]})) && scancel "${jobs[@]}" 2>/dev/null
fi
for ((i = 0; i < 10; i++)); do
  [[ -z $(our_stepds) ]] && break
  sleep 0.1
done
mapfile -t stepds < <(our_stepds)
if ((${#stepds[@]})); then
  mapfile -t procs < <(descendants "${stepds[@]}")
  ((${#procs[@]})) && kill -KILL "${procs[@]}" 2>/dev/null
  for ((i = 0; i < 20; i++)); do
    [[ -z $(our_stepds) ]] && break
    sleep 0.1
  done
  mapfile -t stepds < <(our_stepds)
  ((${#stepds[@]})) && kill -KILL "${stepds[@]}" 2>/dev/null
fi

# The daemons at once (each takes 1-2 s to exit): SIGTERM, then SIGKILL to what still runs
# after its grace - slurmd 3 s (with jobs just ended it waits ~10 s for the threads that
# report them; nothing of it is kept), slurmctld and munged 10 s.
declare -A grace=([slurmd]=3 [slurmctld]=10 [munged]=10) pids=()
for d in slurmd:slurmd.pid slurmctld:slurmctld.pid munged:munge/munged.pid; do
  name=${d%%:*} pidfile=$dir/${d#*:}
  if pid=$(alive_pid "$pidfile" "$name"); then pids[$name]=$pid; kill -TERM "$pid" 2>/dev/null; fi
  rm -f "$pidfile"
done
for ((t = 0; ${#pids[@]} && t <= 100; t++)); do
  for name in "${!pids[@]}"; do
    pid=${pids[$name]}
    if [[ ! -d /proc/$pid ]]; then
      unset "pids[$name]"
    elif ((t >= grace[$name] * 10)); then
      echo "stop.sh: $name ($pid) still runs ${grace[$name]} s after SIGTERM: SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null
      unset "pids[$name]"
    fi
  done
  ((${#pids[@]})) && sleep 0.1
done
rm -f "$dir/munge/munge.socket.2" "$dir/munge/munge.socket.2.lock"
exit 0
