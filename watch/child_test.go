//go:build unix

package watch

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestChild(t *testing.T) {
	tests := []struct {
		desc   string
		script string        // run by sh -c; it prints "ready" once its traps are set
		sig    os.Signal     // passed on once the child is ready; nil: none
		grace  time.Duration // for Interrupt
		want   int           // Exit.Status
		killed bool
	}{
		{desc: "exits by itself with its status", script: "echo ready; exit 3", want: 3},
		{desc: "exits by itself with 0", script: "echo ready; exit 0", want: 0},
		{desc: "ended by a signal nobody passed on", script: "echo ready; kill -TERM $$", want: 128 + int(syscall.SIGTERM)},
		{
			desc:   "Ctrl-C passed on, the generator stops cleanly",
			script: "trap 'exit 0' INT; echo ready; while :; do sleep 0.05; done",
			sig:    os.Interrupt, want: 0,
		},
		{
			desc:   "Ctrl-C passed on, the generator exits 130 as shells do",
			script: "trap 'exit 130' INT; echo ready; while :; do sleep 0.05; done",
			sig:    os.Interrupt, want: 0,
		},
		{
			desc:   "SIGTERM passed on, the generator dies of it",
			script: "echo ready; while :; do sleep 0.05; done",
			sig:    syscall.SIGTERM, want: 0,
		},
		{
			desc:   "Ctrl-C passed on, the generator fails while stopping",
			script: "trap 'exit 2' INT; echo ready; while :; do sleep 0.05; done",
			sig:    os.Interrupt, want: 2,
		},
		{
			desc:   "a generator that ignores Ctrl-C is killed after the grace time",
			script: "trap '' INT; echo ready; while :; do sleep 0.05; done",
			sig:    os.Interrupt, grace: 200 * time.Millisecond, want: 0, killed: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c, out, _ := startScript(t, tc.script)
			waitLine(t, out, "ready")
			if tc.sig != nil {
				if err := c.Interrupt(tc.sig, tc.grace); err != nil {
					t.Fatal(err)
				}
			}
			e := wait(t, c)
			if got := e.Status(); got != tc.want {
				t.Errorf("Status() = %d, want %d (%s)", got, tc.want, e)
			}
			if e.Killed != tc.killed {
				t.Errorf("Killed = %v, want %v", e.Killed, tc.killed)
			}
			if (e.Asked != nil) != (tc.sig != nil) {
				t.Errorf("Asked = %v, want %v", e.Asked, tc.sig)
			}
			groupGone(t, c.Pid())
		})
	}
}

// TestChildGroup checks that what the child started goes with it: a background job of a shell
// (which a non-interactive shell starts with Ctrl-C ignored) is killed with the group.
func TestChildGroup(t *testing.T) {
	tests := []struct {
		desc   string
		script string
		sig    os.Signal
	}{
		{"Ctrl-C passed on", "sleep 300 & echo $!; echo ready; wait", os.Interrupt},
		{"the child exits and leaves a job behind", "sleep 300 & echo $!; echo ready; read x; exit 0", nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c, out, stdin := startScript(t, tc.script)
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			job, err := strconv.Atoi(strings.TrimSpace(line))
			if err != nil {
				t.Fatalf("job pid %q: %v", line, err)
			}
			waitLine(t, out, "ready")
			if tc.sig != nil {
				c.Interrupt(tc.sig, time.Second)
			} else {
				// The script's read ends when its input does: close the pipe robotsmith holds.
				stdin.Close()
			}
			wait(t, c)
			groupGone(t, c.Pid())
			if err := syscall.Kill(job, 0); err == nil && !zombie(job) {
				t.Errorf("the background job %d is still running", job)
			}
		})
	}
}

// TestChildDiesWithParent starts a parent process (this test binary again) that starts a child
// and is then killed with SIGKILL, as robotsmith could be; the child must not be left running.
func TestChildDiesWithParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux ties a child's life to its parent's")
	}
	if os.Getenv("WATCH_TEST_PARENT") == "1" {
		cmd := exec.Command("sh", "-c", "echo $$; while :; do sleep 0.05; done")
		cmd.Stdout = os.Stdout
		c, err := StartChild(cmd)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		c.Wait()
		return
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestChildDiesWithParent$")
	parent.Env = append(os.Environ(), "WATCH_TEST_PARENT=1")
	pipe, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(pipe).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("child pid %q: %v", line, err)
	}
	parent.Process.Kill()
	parent.Wait()
	groupGone(t, child)
}

// startScript starts sh -c script as a Child, its stdout piped back to the test and its stdin a
// pipe whose writing end it returns.
func startScript(t *testing.T, script string) (*Child, *bufio.Reader, *os.File) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr, cmd.Stdin = w, os.Stderr, inR
	c, err := StartChild(cmd)
	w.Close()
	inR.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		inW.Close()
		c.Interrupt(syscall.SIGKILL, time.Millisecond)
		c.Wait()
	})
	return c, bufio.NewReader(r), inW
}

func waitLine(t *testing.T, r *bufio.Reader, want string) {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != want {
		t.Fatalf("child said %q (%v), want %q", line, err, want)
	}
}

func wait(t *testing.T, c *Child) Exit {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(patience):
		t.Fatal("the child did not end")
	}
	return c.Wait()
}

// groupGone fails unless the process group pgid has no running process left (a zombie that init
// has yet to reap runs nothing).
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) || err == nil && groupZombies(pgid) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has running processes (kill: %v)", pgid, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupZombies reports whether every process of group pgid is a zombie (Linux /proc; elsewhere it
// reports false, so groupGone waits for the group to be reaped).
func groupZombies(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, group, ok := procStat(pid)
		if ok && group == pgid && state != "Z" {
			return false
		}
	}
	return true
}

func zombie(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state == "Z"
}

// procStat reads a process's state and process group from /proc/PID/stat.
func procStat(pid int) (state string, pgrp int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses, so split after the last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 3 {
		return "", 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0], pgrp, err == nil
}
