//go:build !unix

package site

import (
	"os"

	"github.com/robotsmith/robotsmith/frontmatter"
)

// readHead reads the source file p up to the end of its front matter (frontmatter.ReadHead) into
// buf's memory.
func readHead(p string, dialect frontmatter.Dialect, buf []byte) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	return frontmatter.ReadHead(f, dialect, buf)
}
