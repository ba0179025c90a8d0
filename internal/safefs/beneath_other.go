//go:build !linux

package safefs

import (
	"io/fs"
	"os"
)

// Only Linux resolves a name beneath a folder in one call (openat2); elsewhere a Folder is OpenIn.
func beneathSupported() bool { return false }

func openBeneath(dir *os.File, full, name string) (*os.File, fs.FileInfo, bool) {
	return nil, nil, false
}

func createBeneath(dir *os.File, full, name string, perm fs.FileMode) (*os.File, bool) {
	return nil, false
}

func readBeneath(dir *os.File, full, name string, buf []byte, limit int64) ([]byte, fs.FileInfo, bool, error) {
	return buf[:0], nil, false, nil
}
