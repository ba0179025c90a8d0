package frontmatter

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReferenceCoversFrontMatter: the manual's front matter reference,
// docs/reference/front-matter.md, has a section "### `key`" for every robots key the reader reads
// (robotsKeys, in either dialect; keys compare without case, as they are read), and none for a key
// it does not read.
func TestReferenceCoversFrontMatter(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "docs", "reference", "front-matter.md"))
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	heading := regexp.MustCompile("(?m)^### `([A-Za-z_]+)`\\s*$")
	for _, m := range heading.FindAllStringSubmatch(string(src), -1) {
		documented = append(documented, strings.ToLower(m[1]))
	}
	var read []string
	for _, d := range []Dialect{Hugo, Jekyll} {
		for _, k := range robotsKeys(d) {
			if !slices.Contains(read, k) {
				read = append(read, k)
			}
		}
	}
	for _, k := range read {
		if !slices.Contains(documented, k) {
			t.Errorf("the reader reads %q, and docs/reference/front-matter.md has no section for it", k)
		}
	}
	for _, k := range documented {
		if !slices.Contains(read, k) {
			t.Errorf("docs/reference/front-matter.md documents %q, a key the reader does not read", k)
		}
	}
}
