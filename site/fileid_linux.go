package site

import (
	"io/fs"
	"os"
	"syscall"
)

// changeTime is the file's change time (ctime, which every write, rename and touch moves, and no
// one sets back) and inode.
func changeTime(fi fs.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano(), st.Ino
	}
	return 0, 0
}

// statID is the identity of the file p (following links, as os.Stat), without the FileInfo that
// os.Stat makes: a site mapped again asks it of every source.
func statID(p string) (fileID, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(p, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fileID{}, &os.PathError{Op: "stat", Path: p, Err: err}
		}
		return fileID{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino}, nil
	}
}
