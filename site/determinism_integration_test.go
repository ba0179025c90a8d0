package site_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// sameOnCopy holds a built site to the rule that a decision depends on the site alone (SPEC §5
// idempotence, §7 one model): after a build, a second build changes nothing, and a byte-identical
// copy of the site in another folder gets, for every file of the output, the decision the site
// gets, and a check with nothing to change and no finding.
func sameOnCopy(t *testing.T, opt pipeline.Options, out string) {
	t.Helper()
	opt.Write = true
	rep, err := pipeline.Run(context.Background(), opt)
	if err != nil || rep.Changed != 0 {
		t.Fatalf("second build: err %v, changed %v; want nothing", err, rep.ChangedFiles)
	}
	outRel, err := filepath.Rel(opt.Root, out)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	walkFiles(t, out, "", func(rel string, _ []byte) { files = append(files, rel) })
	dup := filepath.Join(t.TempDir(), "site")
	testtool.CopyTree(t, opt.Root, dup)
	want := explained(t, opt.Root, outRel, opt.Env, files)
	got := explained(t, dup, outRel, opt.Env, files)
	for _, f := range files {
		if got[f] != want[f] {
			t.Errorf("%s: the copy's decision differs from the site's:\n got  %s\n want %s", f, got[f], want[f])
		}
	}
	rep, err = pipeline.Run(context.Background(), pipeline.Options{Root: dup, Env: opt.Env})
	if err != nil || rep.Changed != 0 || len(rep.Findings) != 0 {
		t.Errorf("check of the copy: err %v, would change %v, findings %v; want nothing", err, rep.ChangedFiles, rep.Findings)
	}
}

// explained is Explain's decision for each file of the output folder outRel of the site at root:
// its class, source, rules, directives per agent with their sources, tags and headers, with the
// site's folder written SITE.
func explained(t *testing.T, root, outRel string, env func(string) string, files []string) map[string]string {
	t.Helper()
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(root, outRel, filepath.FromSlash(f))
	}
	es, err := pipeline.Explain(context.Background(), pipeline.Options{Root: root, Env: env}, paths)
	if err != nil {
		t.Fatalf("explain %s: %v", root, err)
	}
	if len(es) != len(files) {
		t.Fatalf("explain %s: %d answers for %d files", root, len(es), len(files))
	}
	real, _ := filepath.EvalSymlinks(root)
	out := map[string]string{}
	for i, e := range es {
		b, err := json.Marshal(struct {
			URL, Source, AliasOf, Class, ContentUsage string
			Rules                                     []pipeline.Rule
			Agents                                    []pipeline.Agent
			Tags                                      []pipeline.Tag
			Header                                    []string
		}{e.URL, e.Source, e.AliasOf, e.Class, e.ContentUsage, e.Rules, e.Agents, e.Tags, e.Header})
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, r := range []string{real, root} {
			if r != "" {
				s = strings.ReplaceAll(s, r, "SITE")
			}
		}
		out[files[i]] = s
	}
	return out
}
