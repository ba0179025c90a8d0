package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/config"
)

// TestOutputOutsideSite: robotsmith's configuration never makes a build rewrite another folder
// than its site's (SPEC §2): `output: ../other` copied from another site fails before anything is
// read or written there, naming the key and line, in build, check and explain. The same folder
// named with --output is processed, and a generator's own configuration that publishes outside the
// site (Hugo's publishDir, Jekyll's destination, both of which the generators allow) is followed,
// as the generator writes there itself.
func TestOutputOutsideSite(t *testing.T) {
	top := t.TempDir()
	site, other := filepath.Join(top, "site"), filepath.Join(top, "other")
	writeTree(t, top, map[string]string{
		"site/robotsmith.yaml": "rules:\n  - path: /**\n    robots: noindex\noutput: ../other\n",
		"site/index.html":      page,
		"other/index.html":     page,
		"other/a/index.html":   page,
	})
	before := readTree(t, other)
	for _, write := range []bool{true, false} {
		_, err := Run(context.Background(), Options{Root: site, Write: write})
		if !errors.Is(err, config.ErrOutside) || !strings.Contains(err.Error(), "robotsmith.yaml:4: output: \"../other\"") {
			t.Errorf("Run (write %v): got %v, want ErrOutside at robotsmith.yaml:4", write, err)
		}
	}
	if _, err := Explain(context.Background(), Options{Root: site}, []string{"/a/"}); !errors.Is(err, config.ErrOutside) {
		t.Errorf("Explain: got %v, want ErrOutside", err)
	}
	if got := readTree(t, other); !reflect.DeepEqual(got, before) {
		t.Fatalf("the other folder changed: %v", got)
	}

	// Named on the command line, it is the user's choice.
	rep, err := Run(context.Background(), Options{Root: site, Output: other, Write: true})
	if err != nil {
		t.Fatalf("--output: %v", err)
	}
	if rep.NoIndex != 2 {
		t.Errorf("--output: got %d noindex pages, want 2", rep.NoIndex)
	}

	// A generator's own configuration may publish outside the site.
	for _, tc := range []struct{ desc, gen, cfg, src, out string }{
		{"hugo publishDir", "hugo.toml", "baseURL = \"https://example.org/\"\npublishDir = \"../hugo-out\"\n", "content/_index.md", "hugo-out"},
		{"jekyll destination", "_config.yml", "destination: ../jekyll-out\n", "index.md", "jekyll-out"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, tc.out)
			writeTree(t, dir, map[string]string{
				"site/" + tc.gen:       tc.cfg,
				"site/" + tc.src:       "---\ntitle: home\nrobots: noindex\n---\n",
				"site/robotsmith.yaml": "tags: three\n",
				tc.out + "/index.html": page,
			})
			rep, err := Run(context.Background(), Options{Root: filepath.Join(dir, "site"), Write: true})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if rep.Output != out || rep.NoIndex != 1 {
				t.Errorf("got output %s with %d noindex pages, want %s with 1", rep.Output, rep.NoIndex, out)
			}
		})
	}
}
