package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) of this process and of the
// relay processes pids, so BenchmarkProcesses can report CPU-seconds per
// put and get beside wall time: on a machine shared with other jobs the
// wall time is mostly their load, the CPU time much less so.
func cpuTime(pids []int) time.Duration {
	var ru syscall.Rusage
	var t time.Duration
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		t = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for _, pid := range pids {
		t += procCPU(pid)
	}
	return t
}

// procCPU reads utime + stime of a process from /proc (clock ticks of
// 10 ms), zero if it cannot.
func procCPU(pid int) time.Duration {
	u, s := procUserSys(pid)
	return u + s
}

// userSys is the user and the system CPU time of this process and of the
// processes pids, apart.
func userSys(pids []int) (selfUser, selfSys, user, sys time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		selfUser, selfSys = time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
	}
	for _, pid := range pids {
		u, s := procUserSys(pid)
		user += u
		sys += s
	}
	return selfUser, selfSys, user, sys
}

// procUserSys reads utime and stime of a process from /proc, zero if it
// cannot.
func procUserSys(pid int) (user, sys time.Duration) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, 0
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64) // field 14, utime
	k, err2 := strconv.ParseInt(f[12], 10, 64) // field 15, stime
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	const tick = time.Second / 100 // USER_HZ is 100 on Linux
	return time.Duration(u) * tick, time.Duration(k) * tick
}
