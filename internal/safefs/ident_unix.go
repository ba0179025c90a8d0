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

// keepOwner gives f, whose Stat is fi, the owner and group of orig where the process may: root
// may set both; another user may set the group to one of its own groups. chowned says whether it
// changed either.
func keepOwner(f *os.File, fi, orig fs.FileInfo) (chowned bool, err error) {
	want, ok := orig.Sys().(*syscall.Stat_t)
	if !ok {
		return false, nil
	}
	have, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || have.Uid == want.Uid && have.Gid == want.Gid {
		return false, nil
	}
	err = f.Chown(int(want.Uid), int(want.Gid))
	if errors.Is(err, fs.ErrPermission) && have.Gid != want.Gid {
		err = f.Chown(-1, int(want.Gid))
	}
	if errors.Is(err, fs.ErrPermission) {
		return false, nil // not ours to set: the file keeps the process's owner
	}
	return err == nil, err
}
