//go:build !unix

package watch

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups to make.
func ownGroup(*exec.Cmd) {}

// signalGroup passes sig to the child alone, or kills it where the system cannot deliver sig.
func signalGroup(p *os.Process, sig os.Signal) error {
	if err := p.Signal(sig); err != nil {
		return p.Kill()
	}
	return nil
}

// killGroup does nothing: the child is the only process known.
func killGroup(*os.Process) {}

// exitOf describes how the process ended.
func exitOf(ps *os.ProcessState, err error) Exit {
	if ps == nil {
		return Exit{Code: -1, Err: err}
	}
	return Exit{Code: ps.ExitCode()}
}

func signum(os.Signal) int { return 0 }
