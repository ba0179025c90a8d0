package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/testtool"
)

// TestBuiltWithDrafts builds the langdirs fixture with `hugo -D` (robotsmith is not told) and
// checks SPEC §2: the draft's file is served, so it gets its decision and is not "not published";
// `params:` keys count; every other output format of a page (index.md) takes its page's noindex as
// X-Robots-Tag; a page written above its section by `slug: ../../x` is found; a config cascade with
// both target and _target uses target; and `check` after
// `build` has nothing to say.
func TestBuiltWithDrafts(t *testing.T) {
	hugo := hugoBinary(t)
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("..", "site", "testdata", "hugo", "langdirs"), dir)
	if err := os.WriteFile(filepath.Join(dir, "content", "en", "blog", "draft.md"), []byte("---\ntitle: Draft\ndraft: true\nrobots: noindex\n---\nD\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(hugo, "--quiet", "-D")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	rep, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if rep.NoOutput != 0 || len(rep.Findings) != 0 {
		t.Errorf("build: %d unpublished %v, findings %v; want none", rep.NoOutput, rep.Unpublished, rep.Findings)
	}
	for _, f := range []string{"blog/draft/index.html", "blog/a/index.html", "fr/blog/a/index.html", "x/index.html"} {
		b, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(f)))
		if err != nil || !strings.Contains(string(b), `<meta name="robots" content="noindex, follow">`) {
			t.Errorf("%s: want the noindex tag, got %.300s (%v)", f, b, err)
		}
	}
	hdr, _ := os.ReadFile(filepath.Join(dir, "public", "_headers"))
	for _, want := range []string{"/blog/a/index.md\n  X-Robots-Tag: noindex", "/fr/blog/a/index.md\n  X-Robots-Tag: noindex", "/blog/draft/index.md\n  X-Robots-Tag: noindex"} {
		if !strings.Contains(string(hdr), want) {
			t.Errorf("_headers lacks %q:\n%s", want, hdr)
		}
	}
	// up.md (slug ../../x, written to x/) is under /blog/, where the config's [[cascade]] sends
	// noindex: its entry names both target (/blog/**) and _target (/never/**), and target wins.
	if !strings.Contains(string(hdr), "/x/index.md\n  X-Robots-Tag: noindex") {
		t.Errorf("_headers lacks /x/index.md's noindex:\n%s", hdr)
	}
	rep, err = Run(context.Background(), Options{Root: dir})
	if err != nil || rep.Changed != 0 || len(rep.Findings) != 0 {
		t.Errorf("check after build: err %v, changed %v, findings %v; want nothing", err, rep.ChangedFiles, rep.Findings)
	}
}
