package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// referenceSections cuts a Markdown file into the sections of its headings of one level (2 for
// "## "), keyed by the heading's text without backquotes; a heading of a higher level ends one.
func referenceSections(t *testing.T, file string, level int) map[string]string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var name string
	var body strings.Builder
	inFence := false
	for l := range strings.Lines(string(b)) {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		n := len(l) - len(strings.TrimLeft(l, "#"))
		if inFence || n == 0 || n > level || !strings.HasPrefix(l[n:], " ") {
			body.WriteString(l)
			continue
		}
		if name != "" {
			out[name] = body.String()
		}
		name = ""
		if n == level {
			name = strings.ReplaceAll(strings.TrimSpace(l[n:]), "`", "")
		}
		body.Reset()
	}
	if name != "" {
		out[name] = body.String()
	}
	return out
}

// TestReferenceCoversCommands: docs/reference/commands.md has a section for every command of the
// command table, with the command's usage line and exit status as its help prints them, and a row
// for every flag its FlagSet defines; and nothing more: no section for a command that does not
// exist, no row for a flag the command does not take.
func TestReferenceCoversCommands(t *testing.T) {
	sections := referenceSections(t, filepath.Join("docs", "reference", "commands.md"), 2)
	flagRow := regexp.MustCompile("(?m)^\\| `(--?[a-z][a-z-]*)")
	documented := map[string]bool{}
	for _, cmd := range commands() {
		title := "robotsmith " + cmd.name
		documented[title] = true
		sec, ok := sections[title]
		if !ok {
			t.Errorf("docs/reference/commands.md has no section \"## `%s`\"", title)
			continue
		}
		usage, _, _ := strings.Cut(cmd.usage(), "\n")
		usage = strings.TrimPrefix(usage, "Usage: ")
		if !strings.Contains(sec, "`"+usage+"`") {
			t.Errorf("%s: the reference does not give its usage line `%s`", title, usage)
		}
		if !strings.Contains(sec, "**Exit status:** "+cmd.exit+".") {
			t.Errorf("%s: the reference does not give its exit status as help does: \"**Exit status:** %s.\"", title, cmd.exit)
		}
		var o options
		var want []string
		cmd.flagSet(&o).VisitAll(func(f *flag.Flag) { want = append(want, dashed(f.Name)) })
		var got []string
		for _, m := range flagRow.FindAllStringSubmatch(sec, -1) {
			got = append(got, m[1])
		}
		for _, f := range want {
			if !slices.Contains(got, f) {
				t.Errorf("%s takes %s, and the reference has no row for it", title, f)
			}
		}
		for _, f := range got {
			if !slices.Contains(want, f) {
				t.Errorf("the reference gives %s a flag %s that it does not take", title, f)
			}
		}
	}
	for title := range sections {
		if strings.HasPrefix(title, "robotsmith ") && !documented[title] {
			t.Errorf("docs/reference/commands.md documents %q, which is not a command", title)
		}
	}
}

// TestReferenceCoversCodes will check docs/reference/codes.md against the registry of problems:
// a section "## RSxxxx name" for every code, with its summary and what to do, and no section for
// a code the registry does not have.
func TestReferenceCoversCodes(t *testing.T) {
	t.Skip("waits for the problem registry: codes.md lists the kinds of problem until every problem has its code")
}

// TestDocLinks: every relative link of README.md, CONTRIBUTING.md and docs/ leads to a file of the
// repository (and a #fragment to a heading of it, as GitHub makes anchors), so that nothing a
// reader follows is missing from a clone; and the manual names no file a clone does not have.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	files := docFiles(t, ".")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := withoutFences(string(src))
		if strings.Contains(text, "SPEC.md") || strings.Contains(text, "SPEC §") {
			t.Errorf("%s names SPEC.md, which a clone does not have: the contract a user relies on is docs/reference", f)
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.ToSlash(filepath.Join(filepath.Dir(f), path))
			}
			fi, err := os.Stat(file)
			if err != nil {
				t.Errorf("%s: link %s: %v", f, target, err)
				continue
			}
			if frag == "" || fi.IsDir() {
				continue
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(anchors(string(b)), frag) {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", f, target, file, frag)
			}
		}
	}
}

// TestDocGoCommands: every go run and go test that the manual names in its text (a measurement in a
// table, a test to run) names a package that exists and, for -bench, one of its benchmarks, so that
// a figure's command cannot outlive what it measures. Fenced commands are checked by
// TestDocExamples (a measure block).
func TestDocGoCommands(t *testing.T) {
	code := regexp.MustCompile("`(go (?:run|test) [^`]+)`")
	for _, f := range docFiles(t, ".") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(withoutFences(string(src)), "\n") {
			for _, m := range code.FindAllStringSubmatch(l, -1) {
				checkGoCommand(t, ".", f+":"+strconv.Itoa(i+1), m[1])
			}
		}
	}
}

// withoutFences is a Markdown text with the lines of its fenced blocks left empty, so that the
// others keep their numbers.
func withoutFences(s string) string {
	var b strings.Builder
	in := false
	for l := range strings.Lines(s) {
		fence := strings.HasPrefix(strings.TrimSpace(l), "```")
		if fence {
			in = !in
		}
		if in || fence {
			b.WriteString("\n")
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// anchors are the anchors GitHub gives a Markdown file's headings: lower case, punctuation other
// than '-' and '_' removed, spaces made '-', a repeat numbered.
func anchors(s string) []string {
	var out []string
	seen := map[string]int{}
	for l := range strings.Lines(withoutFences(s)) {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a = a + "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out = append(out, a)
	}
	return out
}

// checkGoCommand checks that each go run and go test of a command line names a package that exists
// and, for go test -bench, a benchmark of that package that the pattern matches. It returns how
// many it checked.
func checkGoCommand(t *testing.T, root, where, line string) int {
	t.Helper()
	n := 0
	line, _, _ = strings.Cut(line, " #")
	for cmd := range strings.SplitSeq(line, "&&") {
		f := strings.Fields(strings.NewReplacer("'", "", "\"", "").Replace(cmd))
		for len(f) > 0 && strings.Contains(f[0], "=") {
			f = f[1:] // the environment it runs with: ROBOTSMITH_LONG=1 go test ...
		}
		if len(f) < 3 || f[0] != "go" || f[1] != "run" && f[1] != "test" {
			continue
		}
		n++
		var pkgs []string
		bench, test := "", ""
		args := f[2:]
		for i := 0; i < len(args); i++ {
			a := args[i]
			if !strings.HasPrefix(a, "-") {
				if strings.HasPrefix(a, "./") || a == "." {
					pkgs = append(pkgs, strings.TrimSuffix(a, "/..."))
				}
				continue
			}
			// A flag's value follows it, but for the flags that take none.
			switch a {
			case "-v", "-benchmem", "-race", "-short", "-update", "-trimpath":
				continue
			}
			if strings.Contains(a, "=") || i+1 == len(args) {
				continue
			}
			i++
			switch a {
			case "-bench":
				bench = args[i]
			case "-run":
				if regexp.MustCompile(`^Test\w+$`).MatchString(args[i]) {
					test = args[i]
				}
			}
		}
		if len(pkgs) == 0 {
			pkgs = []string{"."}
		}
		for _, pkg := range pkgs {
			dir := filepath.Join(root, filepath.FromSlash(pkg))
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				t.Errorf("%s: %s: no package %s", where, strings.TrimSpace(cmd), pkg)
				continue
			}
			if test != "" && !testExists(t, dir, test) {
				t.Errorf("%s: %s: package %s has no test %s", where, strings.TrimSpace(cmd), pkg, test)
			}
			if f[1] != "test" || bench == "" {
				continue
			}
			re, err := regexp.Compile(bench)
			if err != nil {
				t.Errorf("%s: -bench %s: %v", where, bench, err)
				continue
			}
			if !hasBenchmark(t, dir, re) {
				t.Errorf("%s: %s: package %s has no benchmark that -bench %s runs", where, strings.TrimSpace(cmd), pkg, bench)
			}
		}
	}
	return n
}

// hasBenchmark reports whether a _test.go file of the package in dir has a benchmark whose name
// (without "Benchmark") re matches, as go test -bench matches it.
func hasBenchmark(t *testing.T, dir string, re *regexp.Regexp) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^func (Benchmark\w*)\(`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(src, -1) {
			if re.Match(m[1]) || re.Match(bytes.TrimPrefix(m[1], []byte("Benchmark"))) {
				return true
			}
		}
	}
	return false
}

// testExists reports whether some _test.go file of the repository declares the test name.
func testExists(t *testing.T, root, name string) bool {
	t.Helper()
	found := false
	decl := []byte("func " + name + "(")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || found {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || p != root && d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			found = bytes.Contains(src, decl)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// docFiles are the Markdown files whose examples run: README.md, CONTRIBUTING.md and docs/.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
