//go:build unix

package safefs

import (
	"io"
	"io/fs"
	"syscall"
)

// A Descriptor is a file opened for reading and read by its descriptor alone, without an os.File:
// an os.File of a regular file costs four or five fcntl calls and an epoll_ctl that fails (Go tries
// the poller for it and undoes the non-blocking mode), more system calls than the open, reads and
// close together, which a run pays for every page and every source. Its errors are os.Open's and
// os.File's: *fs.PathError with the system's errno.
type Descriptor struct {
	fd   int
	name string
}

// OpenDescriptor opens name for reading as os.Open does (links followed).
func OpenDescriptor(name string) (Descriptor, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return Descriptor{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return Descriptor{fd, name}, nil
}

// Read is io.Reader's Read: io.EOF at the end of the file.
func (d Descriptor) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(d.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: d.name, Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Close closes the descriptor.
func (d Descriptor) Close() error { return syscall.Close(d.fd) }

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
