package llmstxt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzParse: whatever the input, Parse places every link (no *LocateError), each link's bytes
// are what its kind says, Prune keeping everything is the identity, Prune of a URL is a
// deletion of bytes that leaves no link to that URL, and Update keeps the text outside its block.
// Seeded from the link forms, the prune fixtures and the generated files.
func FuzzParse(f *testing.F) {
	for _, tc := range linkForms {
		f.Add([]byte(tc.in))
	}
	for _, src := range fixtures(f) {
		f.Add(src)
	}
	f.Add(Generate(site, pages))
	f.Add([]byte("\xef\xbb\xbf<!-- robotsmith: begin -->\r\n# T\r\n<!-- robotsmith: end -->\r\n[[[d](/a)](/b)](/c)"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		file, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		checkLinks(t, src, file)
		out, pruned, err := Prune(src, keepAll)
		if err != nil || !bytes.Equal(out, src) || len(pruned) != 0 {
			t.Fatalf("Prune keeping everything: %v, %d pruned, changed %v", err, len(pruned), !bytes.Equal(out, src))
		}
		if len(file.Links) > 0 {
			victim := file.Links[len(file.Links)/2].URL
			drop := func(url string) (bool, string) { return url == victim, "fuzz" }
			out, pruned, err := Prune(src, drop)
			if errors.Is(err, ErrRounds) {
				return
			}
			if err != nil {
				t.Fatalf("Prune: %v", err)
			}
			if len(pruned) == 0 || !subsequence(out, src) {
				t.Fatalf("Prune of %q: %d pruned, deletion only %v", victim, len(pruned), subsequence(out, src))
			}
			after, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse of the pruned file: %v", err)
			}
			for _, l := range after.Links {
				if l.URL == victim {
					t.Fatalf("%q is still linked at line %d:\n%s", victim, l.Line, out)
				}
			}
		}
		if up, err := Update(src, site, pages); err == nil {
			if strings.TrimSpace(strings.TrimPrefix(outside(up), "\xef\xbb\xbf")) != strings.TrimSpace(strings.TrimPrefix(outside(src), "\xef\xbb\xbf")) {
				t.Fatalf("Update changed the owner's text")
			}
		}
	})
}
