package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestBuiltWithDrafts builds the langdirs fixture with drafts in every way Hugo takes it (`hugo
// -D` that robotsmith is not told of, HUGO_BUILDDRAFTS, `command: hugo -D` that robotsmith runs)
// and checks SPEC §2: the draft's file is served, so it gets its decision and is not "not
// published"; `params:` keys count; every other output format of a page (index.md) takes its
// page's noindex as X-Robots-Tag; a page written above its section by `slug: ../../x` is found; a
// config cascade with both target and _target uses target; and `check` after `build` has nothing
// to say. Built without drafts, the draft is "not published" and nothing else changes.
func TestBuiltWithDrafts(t *testing.T) {
	hugo := hugoBinary(t)
	for _, tc := range []struct {
		name    string
		args    []string          // hugo's flags when the test runs it
		env     map[string]string // for hugo and robotsmith both
		command bool              // robotsmith runs hugo (with args) as its configured command
		drafts  bool
	}{
		{name: "hugo -D", args: []string{"-D"}, drafts: true},
		{name: "HUGO_BUILDDRAFTS", env: map[string]string{"HUGO_BUILDDRAFTS": "true"}, drafts: true},
		{name: "command: hugo -D", args: []string{"-D"}, command: true, drafts: true},
		{name: "no drafts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtool.CopyTree(t, filepath.Join("..", "site", "testdata", "hugo", "langdirs"), dir)
			write := func(rel, s string) {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("content/en/blog/draft.md", "---\ntitle: Draft\ndraft: true\nrobots: noindex\n---\nD\n")
			cache := "HUGO_CACHEDIR=" + filepath.Join(dir, ".cache")
			if tc.command {
				write("robotsmith.yaml", "command: "+cache+" '"+hugo+"' --quiet "+strings.Join(tc.args, " ")+"\n")
			} else {
				cmd := exec.Command(hugo, append([]string{"--quiet"}, tc.args...)...)
				cmd.Dir, cmd.Env = dir, append(os.Environ(), cache)
				for k, v := range tc.env {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("hugo: %v\n%s", err, out)
				}
			}
			env := func(k string) string { return tc.env[k] }
			rep, err := Run(context.Background(), Options{Root: dir, Write: true, RunCommand: tc.command, Env: env})
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			wantUnpublished := 1
			if tc.drafts {
				wantUnpublished = 0
			}
			if rep.NoOutput != wantUnpublished || len(rep.Findings) != 0 {
				t.Errorf("build: %d unpublished %v, findings %v; want %d and none", rep.NoOutput, rep.Unpublished, rep.Findings, wantUnpublished)
			}
			pages := []string{"blog/a/index.html", "fr/blog/a/index.html", "x/index.html"}
			formats := []string{"/blog/a/index.md", "/fr/blog/a/index.md", "/x/index.md"}
			if tc.drafts {
				pages = append(pages, "blog/draft/index.html")
				formats = append(formats, "/blog/draft/index.md")
			} else if _, err := os.Stat(filepath.Join(dir, "public", "blog", "draft")); err == nil {
				t.Errorf("hugo wrote the draft without being asked to")
			}
			for _, f := range pages {
				b, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(f)))
				if err != nil || !strings.Contains(string(b), `<meta name="robots" content="noindex, follow">`) {
					t.Errorf("%s: want the noindex tag, got %.300s (%v)", f, b, err)
				}
			}
			// up.md (slug ../../x, written to x/) is the page the config's [[cascade]] sends
			// noindex to: its entry names both target (/blog/up) and _target (/never/**), and
			// target wins. The cascade reaches no other page, so every other noindex here is the
			// page's own (params.robots, params.noindex, robots).
			hdr, _ := os.ReadFile(filepath.Join(dir, "public", "_headers"))
			for _, f := range formats {
				if !strings.Contains(string(hdr), f+"\n  X-Robots-Tag: noindex") {
					t.Errorf("_headers lacks %s's noindex:\n%s", f, hdr)
				}
			}
			rep, err = Run(context.Background(), Options{Root: dir, Env: env})
			if err != nil || rep.Changed != 0 || len(rep.Findings) != 0 || rep.NoOutput != wantUnpublished {
				t.Errorf("check after build: err %v, changed %v, findings %v, %d unpublished; want nothing and %d", err, rep.ChangedFiles, rep.Findings, rep.NoOutput, wantUnpublished)
			}
		})
	}
}
