package watch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// DefaultGrace is how long a child may take to stop after robotsmith passes it Ctrl-C before its
// whole process group is killed.
const DefaultGrace = 10 * time.Second

// Child is the generator running in its own watch mode (`hugo server`, `jekyll serve`) as
// robotsmith's child, for `robotsmith watch -- CMD ARGS...`.
//
// It runs in a process group of its own, so that robotsmith decides when it is stopped (a Ctrl-C at
// the terminal reaches robotsmith, which passes it on with Interrupt once its own work is safe) and
// so that everything the command started goes with it: when the child exits, whatever is left of
// its group is killed. On Linux the child is also sent SIGTERM if robotsmith dies without stopping
// it. Its standard input is empty unless the caller sets one: a process outside the terminal's
// foreground group that reads the terminal is stopped by the system.
type Child struct {
	cmd  *exec.Cmd
	done chan struct{}

	mu     sync.Mutex
	asked  os.Signal   // the first signal passed on, nil if none
	killer *time.Timer // kills the group when the grace time is over
	killed bool        // the grace time ran out
	exit   Exit
}

// Exit is how a child ended.
type Exit struct {
	Code   int       // its exit code; -1 when a signal ended it
	Signal os.Signal // the signal that ended it, nil if it exited
	// Asked is the signal robotsmith passed on (Interrupt), nil if the child ended by itself.
	Asked os.Signal
	// Killed says the child did not stop within the grace time and its group was killed.
	Killed bool
	Err    error // waiting for it failed (not an exit status)
}

// Status is the exit status for robotsmith watch: 0 when the child stopped because it was asked
// to (Ctrl-C, SIGTERM) and did not report a failure of its own; otherwise the child's own
// status, 128 plus the signal number when a signal ended it (as shells report it), or 1 when
// waiting for it failed.
func (e Exit) Status() int {
	switch {
	case e.Err != nil:
		return 1
	case e.Asked != nil && (e.Signal != nil || e.Code == 0 || e.Code == 128+signum(e.Asked)):
		return 0
	case e.Signal != nil:
		return 128 + signum(e.Signal)
	}
	return e.Code
}

func (e Exit) String() string {
	var s string
	switch {
	case e.Err != nil:
		s = e.Err.Error()
	case e.Signal != nil:
		s = "killed by " + e.Signal.String()
	default:
		s = fmt.Sprintf("exit status %d", e.Code)
	}
	if e.Killed {
		s += " (did not stop in time)"
	}
	return s
}

// StartChild starts cmd as a Child. The caller sets cmd's Path, Args, Dir, Env, Stdout and Stderr;
// StartChild sets its process attributes.
func StartChild(cmd *exec.Cmd) (*Child, error) {
	if cmd.Process != nil {
		return nil, errors.New("watch: child already started")
	}
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Child{cmd: cmd, done: make(chan struct{})}
	go c.wait()
	return c, nil
}

func (c *Child) wait() {
	err := c.cmd.Wait()
	// The leader is gone; so must be anything it left running in its group.
	killGroup(c.cmd.Process)
	c.mu.Lock()
	if c.killer != nil {
		c.killer.Stop()
	}
	c.exit = exitOf(c.cmd.ProcessState, err)
	c.exit.Asked = c.asked
	c.exit.Killed = c.killed
	c.mu.Unlock()
	close(c.done)
}

// Pid is the child's process id, which is also its process group's id.
func (c *Child) Pid() int { return c.cmd.Process.Pid }

// Done is closed when the child has exited and its group is gone.
func (c *Child) Done() <-chan struct{} { return c.done }

// Wait waits for the child to exit and returns how it ended.
func (c *Child) Wait() Exit {
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exit
}

// Interrupt passes sig (os.Interrupt for Ctrl-C, or SIGTERM) to the child's whole process group.
// If the child has not exited grace later (0 means DefaultGrace), the group is killed. Calling it
// again passes the signal again; the first signal is the one Exit reports.
func (c *Child) Interrupt(sig os.Signal, grace time.Duration) error {
	if grace <= 0 {
		grace = DefaultGrace
	}
	select {
	case <-c.done:
		return nil
	default:
	}
	c.mu.Lock()
	if c.asked == nil {
		c.asked = sig
		c.killer = time.AfterFunc(grace, func() {
			select {
			case <-c.done:
				return
			default:
			}
			c.mu.Lock()
			c.killed = true
			c.mu.Unlock()
			killGroup(c.cmd.Process)
		})
	}
	c.mu.Unlock()
	return signalGroup(c.cmd.Process, sig)
}
