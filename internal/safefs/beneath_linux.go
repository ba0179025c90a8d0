package safefs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 is found missing (ENOSYS: a kernel before 5.6, or a sandbox that
// refuses it), so that no later file tries it again.
var noOpenat2 atomic.Bool

func beneathSupported() bool { return !noOpenat2.Load() }

// openReadBeneath opens name beneath dir for reading, as openBeneath says, and returns its
// descriptor; ok is false when openat2 did not open it.
func openReadBeneath(dir *os.File, name string) (fd int, ok bool) {
	if noOpenat2.Load() {
		return -1, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := unix.Openat2(int(dir.Fd()), name, &how)
	if err != nil {
		if err == unix.ENOSYS {
			noOpenat2.Store(true)
		}
		return -1, false
	}
	return fd, true
}

// openBeneath opens name beneath dir in one system call: never a link at its end (O_NOFOLLOW),
// never outside dir (RESOLVE_BENEATH: no "..", absolute name or link that leaves it), never
// blocking (a FIFO), and only a regular file. ok is false for anything else, which the caller
// asks OpenIn about. full is the folder's name, for the file's.
func openBeneath(dir *os.File, full, name string) (f *os.File, fi fs.FileInfo, ok bool) {
	fd, ok := openReadBeneath(dir, name)
	if !ok {
		return nil, nil, false
	}
	f = os.NewFile(uintptr(fd), full+"/"+name)
	fi, err := regular(f, name)
	if err != nil {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

// createBeneath creates name beneath dir for writing, in one system call, as os.Root's OpenFile
// does in one call a folder: a new file only (O_EXCL, so never through a link at its end), never
// outside dir. ok is false for anything else (the name is taken, an old kernel), which the caller
// does with os.Root, whose answer stands.
func createBeneath(dir *os.File, full, name string, perm fs.FileMode) (f *os.File, ok bool) {
	if noOpenat2.Load() {
		return nil, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Mode:    uint64(perm.Perm()),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := unix.Openat2(int(dir.Fd()), name, &how)
	if err != nil {
		if err == unix.ENOSYS {
			noOpenat2.Store(true)
		}
		return nil, false
	}
	return os.NewFile(uintptr(fd), full+"/"+name), true
}

// readBeneath is Folder.ReadFile where openat2 opens the file: opened as openBeneath opens it,
// then read and closed with the descriptor alone. An os.File of a descriptor opened O_NONBLOCK
// costs five fcntl calls and an epoll_ctl that fails for a regular file (os.NewFile tries the
// poller for it and undoes the non-blocking mode), more system calls than the open, fstat, reads
// and close together, a page after page. ok is false, with nothing read, when it did not open a
// regular file: the caller asks OpenIn, whose answer stands.
func readBeneath(dir *os.File, full, name string, buf []byte, limit int64) (data []byte, fi fs.FileInfo, ok bool, err error) {
	fd, ok := openReadBeneath(dir, name)
	if !ok {
		return buf[:0], nil, false, nil
	}
	defer syscall.Close(fd)
	st := &statInfo{name: path.Base(name)}
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st.sys) }); err != nil || st.sys.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf[:0], nil, false, nil
	}
	data, err = readInto(buf, full+"/"+name, st.sys.Size, limit, func(p []byte) (int, error) {
		for {
			n, err := syscall.Read(fd, p)
			switch {
			case err == syscall.EINTR:
				continue
			case err != nil:
				return 0, &fs.PathError{Op: "read", Path: full + "/" + name, Err: err}
			case n == 0 && len(p) > 0:
				return 0, io.EOF
			}
			return n, nil
		}
	})
	if err != nil {
		return data, nil, true, err
	}
	return data, st, true, nil
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

// statInfo is the fs.FileInfo of a regular file from its fstat, as os.File's Stat gives it (Sys
// is the *syscall.Stat_t), for a file read without an os.File (readBeneath).
type statInfo struct {
	name string
	sys  syscall.Stat_t
}

func (s *statInfo) Name() string { return s.name }
func (s *statInfo) Size() int64  { return s.sys.Size }
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.sys.Mode & 0o777)
	if s.sys.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.sys.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.sys.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m // a regular file: no type bits
}
func (s *statInfo) ModTime() time.Time { return time.Unix(s.sys.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return false }
func (s *statInfo) Sys() any           { return &s.sys }
