//go:build unix

package site

import (
	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/internal/safefs"
)

// readHead reads the source file p up to the end of its front matter (frontmatter.ReadHead) into
// buf's memory, with the file's descriptor alone (safefs.Descriptor: a site has a source a page,
// and an os.File costs more system calls than the reading).
func readHead(p string, dialect frontmatter.Dialect, buf []byte) ([]byte, error) {
	d, err := safefs.OpenDescriptor(p)
	if err != nil {
		return buf[:0], err
	}
	defer d.Close()
	return frontmatter.ReadHead(d, dialect, buf)
}
