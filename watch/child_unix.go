//go:build unix

package watch

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a new process group (whose id is its pid).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	deathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to every process of p's group.
func signalGroup(p *os.Process, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return p.Signal(sig)
	}
	if err := syscall.Kill(-p.Pid, s); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// killGroup kills every process left in p's group.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL) // ESRCH: nothing was left
}

// exitOf describes how the process ended.
func exitOf(ps *os.ProcessState, err error) Exit {
	if ps == nil {
		return Exit{Code: -1, Err: err}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Exit{Code: -1, Signal: ws.Signal()}
	}
	return Exit{Code: ps.ExitCode()}
}

// signum is sig's number, 0 for a signal the system does not number.
func signum(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 0
}
