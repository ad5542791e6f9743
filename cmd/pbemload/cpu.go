package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// cpuClock reads the CPU time of this process, of a pbem serve it drives
// (serverPID, when set) and, when the PostgreSQL server runs on this
// machine and its /proc entries are readable, of the server processes
// serving the load test's database and of the whole cluster. CPU time per
// move is steadier than a rate on a machine shared with other work.
type cpuClock struct {
	pool      *pgxpool.Pool
	serverPID int
}

// cpuReading is one reading of a cpuClock; pg, cluster and server are
// negative when their processes could not be read.
type cpuReading struct {
	self, pg, cluster, server time.Duration
}

func (c cpuClock) read(ctx context.Context) cpuReading {
	r := cpuReading{pg: -1, cluster: -1, server: -1}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		r.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if c.serverPID > 0 {
		if t, ok := procCPU(c.serverPID); ok {
			r.server = t
		}
	}
	if c.pool == nil {
		return r
	}
	r.cluster = clusterCPU(ctx, c.pool)
	rows, err := c.pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return r
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil || len(pids) == 0 {
		return r
	}
	var total time.Duration
	for _, pid := range pids {
		t, ok := procCPU(int(pid))
		if !ok {
			return r
		}
		total += t
	}
	r.pg = total
	return r
}

// procCPU returns the user+system CPU time of process pid from /proc.
func procCPU(pid int) (time.Duration, bool) {
	f, ok := procStat(pid)
	if !ok {
		return 0, false
	}
	return ticks(f[11]) + ticks(f[12]), true
}

// procStat returns the fields of /proc/PID/stat after the command name
// (which may hold spaces): f[0] is the state, f[1] the parent's pid,
// f[11] and f[12] the user and system time, f[13] and f[14] those of the
// children it waited for.
func procStat(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(s[i+1:])
	return f, len(f) >= 15
}

// ticks converts a /proc clock-tick count: Linux reports ticks of 1/100 s
// (USER_HZ) on every common platform.
func ticks(s string) time.Duration {
	n, _ := strconv.ParseInt(s, 10, 64)
	return time.Duration(n) * 10 * time.Millisecond
}

// clusterCPU returns the CPU time of the whole PostgreSQL cluster of pool,
// whatever database or background job it spent it on: the postmaster (the
// parent of this connection's backend), the children it waited for, and
// its live children (backends, WAL writer, checkpointer, autovacuum...);
// negative when they cannot be read.
func clusterCPU(ctx context.Context, pool *pgxpool.Pool) time.Duration {
	var backend int
	if err := pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		return -1
	}
	f, ok := procStat(backend)
	if !ok {
		return -1
	}
	pm, _ := strconv.Atoi(f[1])
	f, ok = procStat(pm)
	if !ok {
		return -1
	}
	total := ticks(f[11]) + ticks(f[12]) + ticks(f[13]) + ticks(f[14])
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return -1
	}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if f, ok := procStat(pid); ok && f[1] == strconv.Itoa(pm) {
			total += ticks(f[11]) + ticks(f[12])
		}
	}
	return total
}

// perOp formats the CPU time between two readings divided by n operations.
func perOp(before, after cpuReading, n int) string {
	if n <= 0 {
		return "no operations"
	}
	per := func(a, b time.Duration) float64 { return ms((b - a) / time.Duration(n)) }
	s := fmt.Sprintf("this process (server and clients) %.3f ms", per(before.self, after.self))
	if before.server >= 0 && after.server >= 0 {
		s = fmt.Sprintf("server %.3f ms, clients %.3f ms", per(before.server, after.server), per(before.self, after.self))
	}
	if before.pg >= 0 && after.pg >= 0 {
		s += fmt.Sprintf(", PostgreSQL %.3f ms", per(before.pg, after.pg))
	} else {
		s += ", PostgreSQL not measurable (server not local or /proc not readable)"
	}
	if before.cluster >= 0 && after.cluster >= 0 {
		s += fmt.Sprintf(" (whole cluster %.3f ms)", per(before.cluster, after.cluster))
		if before.server >= 0 && after.server >= 0 {
			s += fmt.Sprintf("; server + whole cluster %.3f ms", per(before.server+before.cluster, after.server+after.cluster))
		}
	}
	return s
}
