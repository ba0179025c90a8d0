//go:build !unix

package safefs

import (
	"io/fs"
	"os"
)

// identOf: without inode numbers, the modification time and the size.
func identOf(fi fs.FileInfo) ident {
	return ident{mtime: fi.ModTime().UnixNano(), ino: uint64(fi.Size())}
}

// keepOwner: ownership is not a mode bit here; nothing to keep.
func keepOwner(*os.File, fs.FileInfo, fs.FileInfo) (bool, error) { return false, nil }
