package site

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSources: over every fixture site, the sources a site lists are what its mapping reads. Each
// file the mapping read or looked at (a page's front matter, a Jekyll file's first line, a content
// folder Hugo's walk listed, a configuration file, go.mod) lies under a listed folder or is a
// listed file; and each listed source is something the mapping read: a content or collection
// folder holds what it read (or does not exist yet), a configuration folder's files were all
// read, a configuration or module file was read. A Hugo content folder with a language holds
// pages of that language only. So a watcher that watches Sources watches all a build reads, and
// nothing the sources do not say.
func TestSources(t *testing.T) {
	for _, gen := range []string{"hugo", "jekyll"} {
		fixtures, err := os.ReadDir(filepath.Join("testdata", gen))
		if err != nil {
			t.Fatal(err)
		}
		for _, fx := range fixtures {
			if !fx.IsDir() {
				continue
			}
			t.Run(gen+"/"+fx.Name(), func(t *testing.T) {
				env := map[string]string{}
				for _, h := range hugoFixtures {
					if gen == "hugo" && h.name == fx.Name() {
						env = h.env
					}
				}
				s, err := Open(filepath.Join("testdata", gen, fx.Name()), Options{Env: func(k string) string { return env[k] }})
				if err != nil {
					t.Fatal(err)
				}
				m, err := s.Remap(nil) // Remap keeps what it read: the account checked below
				if err != nil {
					t.Logf("Remap: %v (the sources it read are checked all the same)", err)
				}
				checkSources(t, s, m, readBy(s, m))
			})
		}
	}
}

// readBy is every file and folder the last mapping of s (Remap) read or listed, absolute, as the
// mapping kept its readings: the configuration files, the content folders Hugo's walk listed,
// the files whose first line or front matter Jekyll read, the pages' sources.
func readBy(s *Site, m *Map) []string {
	var out []string
	for _, f := range s.ConfigFiles {
		out = append(out, absOr(f))
	}
	r := s.kept
	for _, c := range []interface{ paths() []string }{&r.hugoDirs, &r.jekyll, &r.yaml} {
		for _, p := range c.paths() {
			out = append(out, absOr(p))
		}
	}
	for _, p := range m.Pages {
		out = append(out, absOr(filepath.Join(s.Root, filepath.FromSlash(p.Source))))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (c *sourceCache[T]) paths() []string {
	var out []string
	for p := range c.files {
		out = append(out, p)
	}
	return out
}

// checkSources checks s.Sources against read, what the mapping read (absolute paths).
func checkSources(t *testing.T, s *Site, m *Map, read []string) {
	t.Helper()
	srcs := s.Sources()
	if len(srcs) == 0 {
		t.Fatal("Sources() is empty")
	}
	for _, src := range srcs {
		if src.Kind == 0 || src.Path == "" {
			t.Errorf("source %+v: no kind or path", src)
		}
	}
	// 1. Everything read is under a listed source.
	for _, p := range read {
		if _, ok := sourceOf(srcs, p); !ok {
			t.Errorf("the mapping read %s, under no source; Sources() = %v", p, srcPaths(srcs))
		}
	}
	// 2. Every source listed is one the mapping read.
	for _, src := range srcs {
		abs := absOr(src.Path)
		fi, err := os.Stat(abs)
		missing := errors.Is(err, fs.ErrNotExist)
		switch src.Kind {
		case SourceConfig:
			if !slices.Contains(s.ConfigFiles, src.Path) {
				t.Errorf("%s: listed as a configuration file; ConfigFiles = %v", src.Path, s.ConfigFiles)
			}
		case SourceModule:
			if err != nil || fi.IsDir() {
				t.Errorf("%s: listed as a module file; it is not a file on disk (%v)", src.Path, err)
			}
		case SourceConfigDir:
			if missing {
				continue
			}
			filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && slices.Contains(hugoConfigExts, strings.TrimPrefix(filepath.Ext(p), ".")) &&
					!slices.ContainsFunc(s.ConfigFiles, func(f string) bool { return absOr(f) == p }) {
					t.Errorf("%s: listed as a configuration folder; its file %s was not read", src.Path, p)
				}
				return nil
			})
		case SourceContent, SourceCollection:
			if missing {
				continue
			}
			if !slices.ContainsFunc(read, func(p string) bool { return within(abs, p) }) {
				t.Errorf("%s: listed as a %s folder; the mapping read nothing in it", src.Path, src.Kind)
			}
		}
	}
	// 3. A Hugo content folder of one language holds pages of that language.
	for _, p := range m.Pages {
		src, ok := sourceOf(srcs, absOr(filepath.Join(s.Root, filepath.FromSlash(p.Source))))
		if ok && src.Lang != "" && p.Lang() != src.Lang {
			t.Errorf("%s: language %q, in the source %s of language %q", p.Source, p.Lang(), src.Path, src.Lang)
		}
	}
}

// sourceOf is the deepest listed source that p (absolute) is, or is under.
func sourceOf(srcs []Source, p string) (Source, bool) {
	var best Source
	found := false
	for _, src := range srcs {
		a := absOr(src.Path)
		if a == p || src.Dir && within(a, p) {
			if !found || len(a) > len(absOr(best.Path)) {
				best, found = src, true
			}
		}
	}
	return best, found
}

// within reports whether p is dir or under it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// realSources are s's sources with their paths absolute and symbolic links resolved, as the
// generators name the files they read (/tmp may be a link).
// A content folder may be a link (Hugo follows one at a content root): a file read through it is
// under the folder it links to.
func realSources(s *Site) []Source {
	srcs := s.Sources()
	for i := range srcs {
		srcs[i].Path = realPath(srcs[i].Path)
	}
	return srcs
}

// realPath is p absolute, its symbolic links resolved when it exists.
func realPath(p string) string {
	p = absOr(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func srcPaths(srcs []Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, s.Kind.String()+":"+s.Path)
	}
	return out
}

// TestSourcesHugoMounts: the content folders a Hugo site lists are the content mounts the real Hugo
// reports for it (`hugo config mounts`, each module's mounts with target content or under it),
// for every fixture site. Hugo v0.165 printed, for the book fixture, one mount per language:
// {"source": "content.en", "target": "content", "sites": {"matrix": {"languages": ["en"]}}}, and
// the same for content.zh and content.he.
func TestSourcesHugoMounts(t *testing.T) {
	hugo := findHugo(t)
	for _, fx := range hugoFixtures {
		if fx.links != nil {
			continue // its content folder is a link the test makes; the other fixtures cover mounts
		}
		t.Run(fx.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "hugo", fx.name))); err != nil {
				t.Fatal(err)
			}
			env := append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
			for k, v := range fx.env {
				env = append(env, k+"="+v)
			}
			cmd := exec.Command(hugo, "config", "mounts")
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("hugo config mounts: %v", err)
			}
			var want []string
			dec := json.NewDecoder(strings.NewReader(string(out)))
			for dec.More() {
				var mod struct {
					Dir    string
					Mounts []struct {
						Source, Target string
						Sites          struct{ Matrix struct{ Languages []string } }
					}
				}
				if err := dec.Decode(&mod); err != nil {
					t.Fatalf("hugo config mounts: %v\n%s", err, out)
				}
				for _, mt := range mod.Mounts {
					if mt.Target != "content" && !strings.HasPrefix(mt.Target, "content/") {
						continue
					}
					p := filepath.Join(mod.Dir, filepath.FromSlash(mt.Source))
					lang := ""
					if len(mt.Sites.Matrix.Languages) == 1 {
						lang = mt.Sites.Matrix.Languages[0]
					}
					if _, err := os.Stat(p); err == nil {
						want = append(want, p+" "+lang)
					}
				}
			}
			s, err := Open(dir, Options{Env: func(k string) string { return fx.env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, src := range s.Sources() {
				if _, err := os.Stat(src.Path); src.Kind == SourceContent && err == nil {
					got = append(got, src.Path+" "+src.Lang)
				}
			}
			real := func(xs []string) []string {
				for i, x := range xs {
					p, lang, _ := strings.Cut(x, " ")
					if r, err := filepath.EvalSymlinks(p); err == nil {
						p = r
					}
					xs[i] = filepath.Clean(p) + " " + lang
				}
				slices.Sort(xs)
				return xs
			}
			if g, w := real(got), real(want); !slices.Equal(g, w) {
				t.Errorf("content sources (folder, language):\n got %q\nwant %q (hugo config mounts)", g, w)
			}
		})
	}
}
