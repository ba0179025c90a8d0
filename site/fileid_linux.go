package site

import (
	"io/fs"
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
