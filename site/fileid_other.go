//go:build !linux

package site

import (
	"io/fs"
	"os"
)

// changeTime: where the fields' names differ (the BSDs, macOS) or there are none (Windows), the
// size and modification time alone, and the watcher's names.
func changeTime(fs.FileInfo) (ctime int64, ino uint64) { return 0, 0 }

// statID is the identity of the file p (following links, as os.Stat).
func statID(p string) (fileID, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return fileID{}, err
	}
	return idOf(fi), nil
}
