#!/usr/bin/env bash
# A one-node Slurm cluster (munged, slurmctld, slurmd) living in one scratch folder, for
# tests that submit real jobs.
#
#   Tests/Servers/slurm.sh start DIR   # prints SLURM_CONF=DIR/slurm.conf on stdout
#   Tests/Servers/slurm.sh stop DIR
#
# `start` creates DIR if needed and keeps everything in it: the MUNGE key, slurm.conf (with
# ports that were free at start), the controller's state, the logs (DIR/*.log) and the pid
# files. It returns once `sinfo` reports the node idle, or exits non-zero with the tail of
# the log of whatever did not come up (after stopping what did). Export the printed
# SLURM_CONF for sbatch, squeue and scontrol.
#
# `stop` cancels the jobs, stops the three daemons, kills whatever is left of the jobs,
# and returns when all of it is gone; DIR can then be deleted. It is safe to run twice,
# after a failed start, and on a DIR that never saw a start or no longer exists.
#
# Unix socket paths are limited to 107 bytes (sun_path). The MUNGE socket and slurmd's spool
# (where it makes one socket per job step, "<node>_<job>.<step>") live in DIR/run, unless
# that would make those paths too long: then DIR/run is a symbolic link to a folder made
# with mktemp under /tmp, which `stop` deletes.
#
# Requeued jobs: Slurm holds a requeued job back for cred_expire + 1 s, here 6 s (see
# slurm.conf below). `scontrol update jobid=J starttime=now+1`, sent once squeue shows J
# PENDING with reason BeginTime, starts it about a second later. Not `starttime=now`: a
# launch in the same second as the requeue is refused by slurmd ("Job credential revoked")
# and the job ends FAILED instead of running again.
#
# Needs root (slurmd runs jobs as their submitter) and Debian's slurm-wlm and munge, which
# Scripts/setup.sh installs. Debian 12 ships Slurm 22.05.
set -euo pipefail

# Bounds. Start-up takes under a second on an idle 2-core machine; the rest is slack for a
# loaded one.
START_DEADLINE_SECONDS=30
# How long a daemon gets between SIGTERM and SIGKILL, and then to disappear.
STOP_GRACE_SECONDS=10
# Ports are chosen before the daemons bind them, so someone may take one in between.
PORT_ATTEMPTS=3
# Longest socket path the kernel accepts (sizeof(sun_path) minus the terminating NUL).
SUN_PATH_MAX=107

log() { printf 'slurm.sh: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

usage() {
    printf 'usage: %s start DIR | stop DIR\n' "$0" >&2
    exit 2
}

# Every daemon is started with this variable, and slurmstepd (started by slurmd) inherits
# it, so `stop` finds this cluster's processes, and only those, even without pid files.
marker() { printf 'SALVO_SLURM_DIR=%s' "$DIR"; }

# ---- processes ------------------------------------------------------------------------

# The state letter of PID (R, S, Z...), or nothing once it is gone.
state_of() { awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null || true; }

# A zombie counts as gone: it has ended, and PID 1 here (and in some containers) reaps
# orphans only every few seconds.
running() {
    local state
    state=$(state_of "$1")
    [[ -n $state && $state != Z && $state != X ]]
}

# True if PID runs and carries this cluster's marker, so a recycled pid is never signalled.
ours_and_alive() {
    [[ $1 =~ ^[0-9]+$ ]] && running "$1" && grep -qzFx -- "$(marker)" "/proc/$1/environ" 2>/dev/null
}

# This process and its ancestors, which `stop` must spare: a caller may well have
# SLURM_CONF=DIR/slurm.conf in its environment.
ancestry() {
    local pid=$BASHPID
    while [[ $pid =~ ^[0-9]+$ ]] && ((pid > 1)); do
        printf '%s\n' "$pid"
        pid=$(awk '{ sub(/^.*\) /, ""); print $2 }' "/proc/$pid/stat" 2>/dev/null || true)
    done
    printf '%s\n' "$$"
}

# The running processes of this cluster: the daemons and step daemons (by the marker), and
# the job processes. Those have the submitter's environment, but slurmstepd always adds
# SLURM_CONF (even for sbatch --export=NONE), which also finds job processes that escaped
# Slurm's tracking: proctrack/linuxproc follows parent links, so a child orphaned by its
# killed job script is no longer counted as part of the job.
cluster_pids() {
    local file pid spare
    spare=" $(ancestry | tr '\n' ' ') "
    while read -r file; do
        pid=${file#/proc/}
        pid=${pid%/environ}
        [[ $spare == *" $pid "* ]] && continue
        if running "$pid"; then printf '%s\n' "$pid"; fi
    done < <(grep -lzFx -e "$(marker)" -e "SLURM_CONF=$CONF" /proc/[0-9]*/environ 2>/dev/null || true)
}

# PIDS and all their descendants: a job's processes that changed their environment are
# still below slurmstepd.
with_descendants() {
    [[ $# -gt 0 ]] || return 0
    ps -eo pid=,ppid= | awk -v roots="$*" '
        BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
        { parent[$1] = $2 }
        END {
            do {
                grew = 0
                for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 }
            } while (grew)
            for (p in keep) print p
        }'
}

# Waits until none of PIDS runs, for at most SECONDS; true if they all ended.
wait_gone() {
    local deadline=$((SECONDS + $1)) pid left
    shift
    while :; do
        left=0
        for pid in "$@"; do
            if running "$pid"; then left=1; break; fi
        done
        ((left == 0)) && return 0
        ((SECONDS < deadline)) || return 1
        sleep 0.2
    done
}

# Waits, for at most SECONDS, until PIDS have left the process table. They are dead
# already, but until PID 1 reaps them `pgrep` still lists them as <defunct>.
wait_reaped() {
    local deadline=$((SECONDS + $1)) pid
    shift
    for pid in "$@"; do
        while [[ -e /proc/$pid ]] && ((SECONDS < deadline)); do sleep 0.2; done
    done
}

pid_from() {
    if [[ -f $1 ]]; then tr -dc '0-9' <"$1"; fi
}

# Stops the daemon whose pid file is FILE: SIGTERM, then SIGKILL if it does not go.
stop_daemon() {
    local file=$1 pid
    pid=$(pid_from "$file")
    if [[ -n $pid ]] && ours_and_alive "$pid"; then
        ENDED+=("$pid")
        kill -TERM "$pid" 2>/dev/null || true
        if ! wait_gone "$STOP_GRACE_SECONDS" "$pid"; then
            log "$(basename "$file" .pid) ($pid) ignored SIGTERM for ${STOP_GRACE_SECONDS}s; killing it"
            kill -KILL "$pid" 2>/dev/null || true
            wait_gone "$STOP_GRACE_SECONDS" "$pid" || true
        fi
    fi
    rm -f "$file"
}

# ---- paths ----------------------------------------------------------------------------

# DIR as an absolute path without symbolic links, whether or not it exists.
set_paths() {
    [[ -n ${1:-} ]] || usage
    DIR="$(realpath -m -- "$1")"
    # slurm.conf has no quoting: a blank or a '#' would cut its paths short.
    [[ $DIR != *[[:space:]#]* ]] || die "DIR must not contain blanks or '#': $DIR"
    CONF="$DIR/slurm.conf"
    NODE="$(hostname -s 2>/dev/null || uname -n)"
    NODE="${NODE%%.*}"
}

# Makes DIR/run, or a short folder under /tmp linked from DIR/run when DIR is too long for
# the sockets that go there, and sets RUN to it.
make_run_dir() {
    # The longest socket: slurmd's per-step socket, with 10-digit job and step ids.
    local longest="$DIR/run/spool/${NODE}_4294967295.4294967295"
    if ((${#longest} <= SUN_PATH_MAX)); then
        mkdir -p "$DIR/run"
        RUN="$DIR/run"
    else
        # /tmp, not $TMPDIR: the test suite's TMPDIR is the long path that led here.
        RUN="$(mktemp -d /tmp/salvo-slurm.XXXXXX)"
        ln -s "$RUN" "$DIR/run"
    fi
    chmod 755 "$RUN"
    mkdir -p "$RUN/spool"
    chmod 755 "$RUN/spool"  # slurmd runs job scripts from here, as their submitter
}

# ---- start ----------------------------------------------------------------------------

# Two TCP ports free on every address right now (slurmctld and slurmd bind the wildcard).
free_ports() {
    /usr/bin/python3 - <<'EOF'
import socket
held = []
for _ in range(2):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("", 0))
    held.append(s)
print(" ".join(str(s.getsockname()[1]) for s in held))
EOF
}

write_conf() {
    local ctld_port=$1 slurmd_port=$2 cpus
    cpus=$(nproc)
    cat >"$CONF" <<EOF
# Written by Tests/Servers/slurm.sh for one test run.
ClusterName=salvo
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Root everywhere: the tests run as root, and there is no slurm user to own files.
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire (the lifetime of a job's launch credential) also holds a requeued job back:
# it may start again cred_expire + 1 s after the requeue (121 s by default). 5 is the least
# Slurm accepts; below that it logs "cred_expire=N invalid" and uses 120.
AuthInfo=socket=$RUN/munge.socket,cred_expire=5
# No cgroups in a container: track job processes through /proc, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A requeued job becomes eligible between scheduling passes, and the next one otherwise
# comes up to 30 s (backfill) or 60 s (main) later: 27 s instead of 6 s from requeue to
# rerun, measured.
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
JobRequeue=1
# Seconds between SIGTERM and SIGKILL when a job is cancelled or requeued (30 by default).
KillWait=2
# Finished jobs drop out of squeue -t all and scontrol a few seconds after they end (the
# least advised value; records go at the next purge pass).
MinJobAge=2
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$RUN/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# The node is what this file says, whatever slurmd detects (a VM's sockets and cores vary).
SlurmdParameters=config_overrides
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=$NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
}

# The last lines of FILE, indented, for an error message.
tail_of() {
    if [[ -s $1 ]]; then
        printf '  --- last lines of %s ---\n' "$1"
        tail -n 20 "$1" | sed 's/^/  /'
    else
        printf '  (%s is empty or missing)\n' "$1"
    fi
}

# Starts a daemon with the marker, its stdio away from the caller: a test harness that reads
# our stdout until end of file would otherwise wait for the daemons to exit.
launch() {
    local name=$1
    shift
    env "$(marker)" SLURM_CONF="$CONF" "$@" </dev/null >/dev/null 2>>"$DIR/$name.stderr"
}

# Waits until CHECK succeeds, while the daemon with pid file PIDFILE lives.
await() {
    local name=$1 pidfile=$2 check=$3 pid
    while ! "$check"; do
        pid=$(pid_from "$pidfile")
        if [[ -n $pid ]] && ! ours_and_alive "$pid"; then
            FAILURE="$name exited during start-up"
            return 1
        fi
        if ((SECONDS >= DEADLINE)); then
            FAILURE="$name did not come up within ${START_DEADLINE_SECONDS}s"
            return 1
        fi
        sleep 0.2
    done
}

munge_ready() { munge -n -S "$RUN/munge.socket" 2>/dev/null | unmunge -S "$RUN/munge.socket" >/dev/null 2>&1; }
ctld_ready() { SLURM_CONF="$CONF" timeout 5 scontrol ping 2>/dev/null | grep -q ' is UP'; }
node_state() { SLURM_CONF="$CONF" timeout 5 sinfo -h -N -n "$NODE" -o '%T %E' 2>/dev/null || true; }
node_idle() { [[ $(node_state) == "idle none" ]]; }

# Starts the daemons in order; on failure sets FAILURE and LOGS (the logs to show).
start_daemons() {
    FAILURE=""
    LOGS=("$DIR/munged.log" "$DIR/munged.stderr")
    # --force: without it munged refuses to start when a folder on the way to its key, socket
    # or log is group- or world-writable without the sticky bit (a checkout made with umask
    # 002, say); with it, it only warns.
    launch munged munged --force --key-file="$DIR/munge.key" --socket="$RUN/munge.socket" \
        --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" --seed-file="$DIR/munged.seed" \
        || { FAILURE="munged did not start"; return 1; }
    await munged "$DIR/munged.pid" munge_ready || return 1

    LOGS=("$DIR/slurmctld.log" "$DIR/slurmctld.stderr")
    launch slurmctld slurmctld -f "$CONF" || { FAILURE="slurmctld did not start"; return 1; }
    await slurmctld "$DIR/slurmctld.pid" ctld_ready || return 1

    # The controller's log says why a node that registered is not idle.
    LOGS=("$DIR/slurmd.log" "$DIR/slurmd.stderr" "$DIR/slurmctld.log")
    launch slurmd slurmd -f "$CONF" || { FAILURE="slurmd did not start"; return 1; }
    if ! await slurmd "$DIR/slurmd.pid" node_idle; then
        FAILURE+=" (node $NODE: $(node_state | sed 's/^$/not registered/'))"
        return 1
    fi
}

start() {
    local pidfile pid attempt ports file
    set_paths "$1"
    mkdir -p "$DIR"
    for pidfile in "$DIR"/munged.pid "$DIR"/slurmctld.pid "$DIR"/slurmd.pid; do
        pid=$(pid_from "$pidfile")
        if [[ -n $pid ]] && ours_and_alive "$pid"; then
            die "a cluster already runs in $DIR (pid $pid); stop it first"
        fi
    done
    local tool
    for tool in munged munge unmunge slurmctld slurmd sinfo scontrol squeue scancel; do
        command -v "$tool" >/dev/null \
            || die "$tool is missing (Scripts/setup.sh installs slurm-wlm and munge)"
    done
    [[ $(id -u) -eq 0 ]] || die "needs root: slurmd runs jobs as the user who submits them"

    mkdir -p "$DIR/state"
    if [[ ! -f $DIR/munge.key ]]; then
        (umask 077 && head -c 1024 /dev/urandom >"$DIR/munge.key")
    fi
    chmod 400 "$DIR/munge.key"

    for ((attempt = 1; ; attempt++)); do
        # A link left dangling (its /tmp folder cleaned away) is made anew.
        if [[ ! -e $DIR/run ]]; then
            rm -f -- "$DIR/run"
            make_run_dir
        fi
        RUN="$(realpath -- "$DIR/run")"
        ports=$(free_ports) || die "could not find two free ports"
        # shellcheck disable=SC2086  # two words on purpose
        write_conf $ports
        DEADLINE=$((SECONDS + START_DEADLINE_SECONDS))
        if start_daemons; then
            printf 'SLURM_CONF=%s\n' "$CONF"
            return 0
        fi
        if ((attempt >= PORT_ATTEMPTS)) || ! grep -qs 'Address already in use' "$DIR"/slurm*.log; then
            break
        fi
        log "a port was taken meanwhile; trying others"
        stop_all >/dev/null 2>&1 || true
        rm -f "$DIR"/slurm*.log "$DIR"/*.stderr
    done
    {
        log "$FAILURE"
        for file in "${LOGS[@]}"; do
            [[ $file == *.stderr && ! -s $file ]] || tail_of "$file"
        done
    } >&2
    stop_all >/dev/null 2>&1 || true
    exit 1
}

# ---- stop -----------------------------------------------------------------------------

stop_all() {
    local pid pids steps jobs
    ENDED=()

    # Cancel the jobs first, while the controller lives, so each one ends the way Slurm ends
    # it (SIGTERM, KillWait, SIGKILL); slurmd leaves running jobs alone when it stops.
    pid=$(pid_from "$DIR/slurmctld.pid")
    if [[ -n $pid ]] && ours_and_alive "$pid"; then
        mapfile -t jobs < <(SLURM_CONF="$CONF" timeout 5 squeue -h -o %A 2>/dev/null | sort -u)
        if [[ ${#jobs[@]} -gt 0 ]]; then
            SLURM_CONF="$CONF" timeout 5 scancel "${jobs[@]}" 2>/dev/null || true
            mapfile -t pids < <(cluster_pids)
            steps=()
            for pid in "${pids[@]}"; do
                if [[ $(tr -d '\0' <"/proc/$pid/cmdline" 2>/dev/null) == slurmstepd* ]]; then
                    steps+=("$pid")
                fi
            done
            ENDED+=("${steps[@]}")
            # KillWait (2 s) and the step's own clean-up.
            wait_gone 8 "${steps[@]}" || true
        fi
    fi

    # slurmd and slurmctld use MUNGE while they shut down, so munged goes last.
    stop_daemon "$DIR/slurmd.pid"
    stop_daemon "$DIR/slurmctld.pid"
    stop_daemon "$DIR/munged.pid"

    # Whatever is left: jobs that did not end, orphans of jobs, step daemons, and daemons
    # whose pid file is missing.
    mapfile -t pids < <(cluster_pids)
    if [[ ${#pids[@]} -gt 0 ]]; then
        mapfile -t pids < <(with_descendants "${pids[@]}" | grep -vxF -f <(ancestry) || true)
        ENDED+=("${pids[@]}")
        kill -KILL "${pids[@]}" 2>/dev/null || true
        if ! wait_gone "$STOP_GRACE_SECONDS" "${pids[@]}"; then
            log "processes still running after SIGKILL: ${pids[*]}"
            return 1
        fi
    fi

    [[ ${#ENDED[@]} -eq 0 ]] || wait_reaped 5 "${ENDED[@]}"

    if [[ -L $DIR/run ]]; then
        local target
        target=$(readlink -- "$DIR/run")
        if [[ $target == /tmp/salvo-slurm.* ]]; then rm -rf -- "$target"; fi
        rm -f -- "$DIR/run"
    fi
}

stop() {
    set_paths "${1:-}"
    stop_all
}

case "${1:-}" in
    start) [[ $# -eq 2 ]] || usage; start "$2" ;;
    stop) [[ $# -eq 2 ]] || usage; stop "$2" ;;
    *) usage ;;
esac
