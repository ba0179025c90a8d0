package safefs

import (
	"io/fs"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 is found missing (ENOSYS: a kernel before 5.6, or a sandbox that
// refuses it), so that no later file tries it again.
var noOpenat2 atomic.Bool

func beneathSupported() bool { return !noOpenat2.Load() }

// openBeneath opens name beneath dir in one system call: never a link at its end (O_NOFOLLOW),
// never outside dir (RESOLVE_BENEATH: no "..", absolute name or link that leaves it), never
// blocking (a FIFO), and only a regular file. ok is false for anything else, which the caller
// asks OpenIn about. full is the folder's name, for the file's.
func openBeneath(dir *os.File, full, name string) (f *os.File, fi fs.FileInfo, ok bool) {
	if noOpenat2.Load() {
		return nil, nil, false
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
		return nil, nil, false
	}
	f = os.NewFile(uintptr(fd), full+"/"+name)
	fi, err = regular(f, name)
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
