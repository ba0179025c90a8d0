package safefs

import (
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
	return openat2(dir, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}

// openat2 opens name beneath dir (RESOLVE_BENEATH: no "..", absolute name or link that leaves it;
// no magic link) with flags and, for a file it creates, mode; ok is false when it did not, and
// once the call is found missing it is not tried again.
func openat2(dir *os.File, name string, flags int, mode fs.FileMode) (fd int, ok bool) {
	if noOpenat2.Load() {
		return -1, false
	}
	how := unix.OpenHow{
		Flags:   uint64(flags),
		Mode:    uint64(mode.Perm()),
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
	fd, ok := openat2(dir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
	if !ok {
		return nil, false
	}
	return os.NewFile(uintptr(fd), full+"/"+name), true
}

// readBeneath is Folder.ReadFile where openat2 opens the file: opened as openBeneath opens it,
// then read and closed as a Descriptor, without an os.File. ok is false, with nothing read, when
// it did not open a regular file: the caller asks OpenIn, whose answer stands.
func readBeneath(dir *os.File, full, name string, buf []byte, limit int64) (data []byte, fi fs.FileInfo, ok bool, err error) {
	fd, ok := openReadBeneath(dir, name)
	if !ok {
		return buf[:0], nil, false, nil
	}
	d := Descriptor{fd, full + "/" + name}
	defer d.Close()
	st := &statInfo{name: path.Base(name)}
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st.sys) }); err != nil || st.sys.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf[:0], nil, false, nil
	}
	if data, err = readInto(buf, d.name, st.sys.Size, limit, d); err != nil {
		return data, nil, true, err
	}
	return data, st, true, nil
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
