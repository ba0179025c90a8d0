package frontmatter

import (
	"strings"
	"testing"
	"unsafe"
)

// BenchmarkParse measures Parse and Robots on a typical page: a dozen keys of
// front matter and about 20 KB of Markdown.
func BenchmarkParse(b *testing.B) {
	body := strings.Repeat("Some *Markdown* text with a [link](/x/) in it.\n", 400)
	for _, bc := range []struct{ name, src string }{
		{"yaml", "---\ntitle: A post\ndate: 2024-01-02\ntags: [a, b, c]\nrobots: noindex, nofollow\nexpiryDate: 2027-01-31\ncascade:\n  - _target: {path: /x/**}\n    noindex: true\n---\n"},
		{"toml", "+++\ntitle = 'A post'\ndate = 2024-01-02\ntags = ['a', 'b', 'c']\nrobots = 'noindex, nofollow'\nexpiryDate = 2027-01-31\n[[cascade]]\nnoindex = true\n[cascade._target]\npath = '/x/**'\n+++\n"},
		{"json", "{\"title\": \"A post\", \"date\": \"2024-01-02\", \"tags\": [\"a\", \"b\", \"c\"],\n \"robots\": \"noindex, nofollow\", \"expiryDate\": \"2027-01-31\",\n \"cascade\": [{\"_target\": {\"path\": \"/x/**\"}, \"noindex\": true}]}\n"},
		{"none", ""},
	} {
		src := []byte(bc.src + body)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := Parse("a.md", src, Hugo)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := d.Robots(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNodeSize keeps a Node in the 144-byte size class (see Node): a field added or moved that
// pushes it to 160 costs every page's front matter a tenth more.
func TestNodeSize(t *testing.T) {
	if got, want := unsafe.Sizeof(Node{}), uintptr(144); got > want {
		t.Errorf("unsafe.Sizeof(Node{}) = %d, want at most %d", got, want)
	}
}
