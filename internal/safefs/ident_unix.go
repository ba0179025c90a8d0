//go:build unix

package safefs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// identOf is what tells the file robotsmith wrote from one written since:
// its inode and modification time. A generator that rewrites a page in place
// keeps the inode but moves the time; a power loss can leave a file shorter
// than it was written, but never with another inode or time, so the size is
// not part of it.
func identOf(fi fs.FileInfo) ident {
	id := ident{mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.ino = uint64(st.Ino)
	}
	return id
}

// keepOwner gives f the owner and group of orig where the process may: root
// may set both; another user may set the group to one of its own groups.
func keepOwner(f *os.File, orig fs.FileInfo) error {
	want, ok := orig.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	have, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	err = f.Chown(int(want.Uid), int(want.Gid))
	if errors.Is(err, fs.ErrPermission) && have.Gid != want.Gid {
		err = f.Chown(-1, int(want.Gid))
	}
	if errors.Is(err, fs.ErrPermission) {
		return nil // not ours to set: the file keeps the process's owner
	}
	return err
}
