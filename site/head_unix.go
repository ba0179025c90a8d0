//go:build unix

package site

import (
	"io"
	"io/fs"
	"syscall"

	"github.com/robotsmith/robotsmith/frontmatter"
)

// readHead reads the source file p up to the end of its front matter (frontmatter.ReadHead) into
// buf's memory, with the file's descriptor alone: an os.File of a regular file costs four fcntl
// calls and an epoll_ctl that fails (os.Open tries the poller for it and undoes the non-blocking
// mode), more system calls than the open, reads and close together, and a site has a source a
// page. Errors are os.Open's and os.File's: *fs.PathError with the system's errno.
func readHead(p string, dialect frontmatter.Dialect, buf []byte) ([]byte, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return buf[:0], &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	return frontmatter.ReadHead(fdReader{fd, p}, dialect, buf)
}

type fdReader struct {
	fd   int
	name string
}

func (r fdReader) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(r.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: r.name, Err: err}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
