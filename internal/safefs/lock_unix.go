//go:build unix

package safefs

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// lockDir takes an exclusive flock on the folder itself, so that no file is
// left in the output to hold a lock (it would be deployed). It waits while
// another robotsmith holds it, until ctx ends. File systems without flock
// (some network mounts) run unlocked.
func lockDir(ctx context.Context, dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return f, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
			return f, nil
		case !errors.Is(err, syscall.EWOULDBLOCK):
			f.Close()
			return nil, &os.PathError{Op: "lock", Path: dir, Err: err}
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// syncDir makes a new name in dir durable.
func syncDir(d *os.File) error { return d.Sync() }
