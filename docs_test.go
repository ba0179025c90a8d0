package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/robotsmith/robotsmith/problem"
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

// codesPage is the reference page of the problem codes.
var codesPage = filepath.Join("docs", "reference", "codes.md")

// TestReferenceCoversCodes: docs/reference/codes.md has a section "## RSxxxx name" for every code of
// the registry (package problem), in code order, and none for a code the registry does not have;
// each section begins with the registry's text: the severity and summary, then the help, as
// codeSection writes them. What the manual adds after that text (an example, a link) is its own.
// go test -run TestReferenceCoversCodes -update . writes the sections from the registry, keeping
// the page's text before them and what each section adds.
func TestReferenceCoversCodes(t *testing.T) {
	src, err := os.ReadFile(codesPage)
	if err != nil {
		t.Fatal(err)
	}
	pre, secs := splitCodesPage(string(src))
	page := map[string]codeSec{}
	var order []string
	for _, s := range secs {
		page[s.title] = s
		order = append(order, s.title)
	}
	var want strings.Builder
	want.WriteString(pre)
	var registry []string
	for n, info := range problem.All() {
		gen := codeSection(info)
		for _, p := range codeMarkdownProblems(info, gen) {
			t.Error(p)
		}
		title := info.Code.String() + " " + info.Name
		registry = append(registry, title)
		if n > 0 {
			want.WriteString("\n")
		}
		want.WriteString(gen)
		s, ok := page[title]
		if s.extra != "" {
			want.WriteString("\n" + s.extra)
		}
		switch {
		case *update:
		case !ok:
			t.Errorf("%s has no section \"## %s\"", codesPage, title)
		case s.head != gen:
			t.Errorf("%s: the section ## %s does not begin with the registry's text:\n--- the page says:\n%s--- the registry says:\n%s", codesPage, title, s.head, gen)
		}
	}
	if *update {
		if err := os.WriteFile(codesPage, []byte(want.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, title := range order {
		if !slices.Contains(registry, title) {
			t.Errorf("%s has a section \"## %s\", a code the registry does not have", codesPage, title)
		}
	}
	if !t.Failed() && want.String() != string(src) {
		// Every section is there and begins right: the order, or the blank lines between, differ.
		t.Errorf("%s: the sections are not in code order, or not separated by one blank line, as the registry gives them: %q", codesPage, order)
	}
	if t.Failed() {
		t.Log("go test -run TestReferenceCoversCodes -update . writes the sections from the registry, keeping the page's other text")
	}
}

// codeSec is a section "## RSxxxx name" of the codes page: head is the heading and the two
// paragraphs after it, which are the registry's; extra what the manual adds after them.
type codeSec struct {
	title, head, extra string
}

// codeHeading is the heading of a code's section.
var codeHeading = regexp.MustCompile(`^## RS[0-9]{4} `)

// splitCodesPage cuts the codes page into the text before the first code's section and the
// sections, each running to the next level-2 heading.
func splitCodesPage(src string) (pre string, secs []codeSec) {
	var cur []string
	flush := func() {
		if len(cur) == 0 {
			return
		}
		s := codeSec{title: strings.TrimSpace(strings.TrimPrefix(cur[0], "## "))}
		// The heading, a blank line, a paragraph, a blank line, a paragraph: the registry's.
		i, paras := 1, 0
		for i < len(cur) && paras < 2 {
			for i < len(cur) && strings.TrimSpace(cur[i]) == "" {
				i++
			}
			for i < len(cur) && strings.TrimSpace(cur[i]) != "" {
				i++
			}
			paras++
		}
		s.head = strings.Join(cur[:i], "")
		rest := cur[i:]
		for len(rest) > 0 && strings.TrimSpace(rest[0]) == "" {
			rest = rest[1:]
		}
		for len(rest) > 0 && strings.TrimSpace(rest[len(rest)-1]) == "" {
			rest = rest[:len(rest)-1]
		}
		s.extra = strings.Join(rest, "")
		secs = append(secs, s)
		cur = nil
	}
	var b strings.Builder
	inFence, started := false, false
	for l := range strings.Lines(src) {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		if !inFence && codeHeading.MatchString(l) {
			flush()
			started = true
		}
		if !started {
			b.WriteString(l)
			continue
		}
		cur = append(cur, l)
	}
	flush()
	return b.String(), secs
}

// codeSection is how a code's section of the codes page begins, from the registry: the heading,
// "**Finding:** " and the summary, and the help, each paragraph wrapped at 100 columns.
func codeSection(i problem.Info) string {
	sev := i.Severity.String()
	return "## " + i.Code.String() + " " + i.Name + "\n\n" +
		wrapParagraph("**"+strings.ToUpper(sev[:1])+sev[1:]+":** "+i.Summary+".", 100) + "\n" +
		wrapParagraph(i.Help, 100)
}

// wrapParagraph breaks text into lines of at most width columns at spaces (a longer word stands
// alone), ending each with a newline. A word that would begin a Markdown block at the start of a
// line (a heading, a list item, a quote, a table, HTML) stays on the line before.
func wrapParagraph(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+len(w) <= width || startsBlock(w):
			b.WriteByte(' ')
			n++
		default:
			b.WriteByte('\n')
			n = 0
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}

// startsBlock reports whether a line beginning with the word w would begin a Markdown block other
// than a paragraph's line.
func startsBlock(w string) bool {
	return strings.ContainsRune("#>-+*=|<~", rune(w[0])) || strings.HasPrefix(w, "```") || listNumber.MatchString(w)
}

// listNumber is a word that begins an ordered list item at the start of a line.
var listNumber = regexp.MustCompile(`^[0-9]{1,9}[.)]$`)

// codeMarkdownProblems says how a code's section, as Markdown, is more than its words: its
// paragraphs must read as text and code spans alone (and the severity in bold), so that a '*' or
// '_' of the registry's text never turns into emphasis, nor a '<' into HTML, on the page.
func codeMarkdownProblems(info problem.Info, section string) []string {
	var out []string
	src := []byte(section)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	bold := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindDocument, ast.KindParagraph, ast.KindText, ast.KindCodeSpan:
		case ast.KindHeading:
			if n.(*ast.Heading).Level != 2 || n.PreviousSibling() != nil {
				out = append(out, fmt.Sprintf("%s %s: the registry's text makes a heading on the page", info.Code, info.Name))
			}
		case ast.KindEmphasis:
			if bold++; bold > 1 || n.(*ast.Emphasis).Level != 2 {
				out = append(out, fmt.Sprintf("%s %s: the registry's text makes emphasis on the page: quote its '*' or '_'", info.Code, info.Name))
			}
		default:
			out = append(out, fmt.Sprintf("%s %s: the registry's text makes a Markdown %s on the page: quote it in backquotes", info.Code, info.Name, n.Kind()))
		}
		return ast.WalkContinue, nil
	})
	if c := doc.ChildCount(); c != 3 {
		out = append(out, fmt.Sprintf("%s %s: the section is %d Markdown blocks, want 3: the heading, the summary and the help", info.Code, info.Name, c))
	}
	return out
}

// TestCodeSection: how a code's section is written from the registry, and the texts whose Markdown
// would say more than their words.
func TestCodeSection(t *testing.T) {
	for _, tc := range []struct {
		desc, help string
		ok         bool
	}{
		{"words", "Remove the entry, or let robotsmith prune it.", true},
		{"code spans", "With `sitemap: keep`, robotsmith leaves `*.xml` alone.", true},
		{"a lone star and a double one", "'*' stays in one segment and '**' crosses segments.", true},
		{"a dash and a number where a line may break", "a b - c 1. d", true},
		{"emphasis", "a *glob* here", false},
		{"underscores around a word", "both target and _target_ here", false},
		{"HTML", "the <link> of a page", false},
		{"a link", "see [the guide](x.md)", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			info := problem.Info{Code: 103, Name: "a-name", Severity: problem.Finding, Summary: "a summary", Help: tc.help}
			sec := codeSection(info)
			if !strings.HasPrefix(sec, "## RS0103 a-name\n\n**Finding:** a summary.\n\n") {
				t.Errorf("codeSection:\n%s", sec)
			}
			if got := codeMarkdownProblems(info, sec); (len(got) == 0) != tc.ok {
				t.Errorf("codeMarkdownProblems(%q) = %q; want ok %v", tc.help, got, tc.ok)
			}
		})
	}
	if got, want := wrapParagraph("aaaa bbbb - cccc 1. dddd eeee", 9), "aaaa bbbb -\ncccc 1.\ndddd eeee\n"; got != want {
		t.Errorf("wrapParagraph: got %q, want %q: no line may begin with - or 1.", got, want)
	}
}

// TestReferenceRecordExample: the pretty-printed line of docs/reference/record.md is a line of the
// record format's example, indexability/testdata/site.golden.jsonl (which indexability's TestGolden
// keeps as the writer writes it): the same JSON, value for value.
func TestReferenceRecordExample(t *testing.T) {
	page := filepath.Join("docs", "reference", "record.md")
	block := testedBlock(t, page, "TestReferenceRecordExample")
	var got map[string]any
	if err := json.Unmarshal([]byte(block), &got); err != nil {
		t.Fatalf("%s: the example is not JSON: %v", page, err)
	}
	golden, err := os.ReadFile(filepath.Join("indexability", "testdata", "site.golden.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.Lines(string(golden)) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["url"] != got["url"] {
			continue
		}
		if !reflect.DeepEqual(got, rec) {
			t.Errorf("%s: the example of the URL %v is not the record's:\n--- the page says:\n%s\n--- the record has:\n%s", page, got["url"], block, l)
		}
		return
	}
	t.Errorf("%s: the example's URL %v is not in the record's example", page, got["url"])
}

// testedBlock is the text of the fenced block of a Markdown file that the comment
// "<!-- doctest: tested-by NAME -->" marks as the test NAME's.
func testedBlock(t *testing.T, file, name string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(src), "<!-- doctest: tested-by "+name+" -->\n")
	if !ok {
		t.Fatalf("%s has no block marked <!-- doctest: tested-by %s -->", file, name)
	}
	fence, rest, _ := strings.Cut(after, "\n")
	fence = strings.TrimSpace(fence)
	if !strings.HasPrefix(fence, "```") {
		t.Fatalf("%s: the line after <!-- doctest: tested-by %s --> is not a fence", file, name)
	}
	body, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatalf("%s: the block of %s is never closed", file, name)
	}
	return body + "\n"
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
