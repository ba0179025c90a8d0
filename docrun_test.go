//go:build unix

package main

// The runner of the examples in README.md, CONTRIBUTING.md and docs/ (TestDocExamples). The Markdown
// is the test, as rustdoc runs a crate's documentation: the go command's testscript files are
// scripts with their files beside them, but a manual read on GitHub cannot include a script, and a
// copy of each example in a script would drift from the page. So the page's blocks are the script,
// run in order in a copy of a fixture, which is a txtar archive as testscript's are.
//
// A fence is an example; an HTML comment on the line before it, which GitHub does not show, says
// what the example is when its language does not (several directives go in one comment, separated
// by ";"):
//
//	site hugo             a scenario begins (the comment may stand alone): a copy of the fixture
//	                      testdata/docs/hugo.txtar, or "sample" (the sample site, generated) or
//	                      "repo" (a copy of this repository); the page's examples after it run there
//	file PATH             the block is written to that file of the scenario
//	output PATH           the file holds the block's lines (loosely, below)
//	config [NAME]         the block, as robotsmith.yaml (or NAME) in a fresh copy of the scenario's
//	                      fixture: robotsmith build --no-command must pass with no warning
//	front-matter PATH     the block, as that source's front matter (or, when it begins with its
//	                      delimiter, the whole file) in a fresh copy: likewise
//	exit N...             the exit status of each command of the block (one for all, or one each)
//	background            the block's last command keeps running once its output so far is shown; a
//	                      later block marked "continued" shows more of its output, and a line "^C"
//	                      there stops it as Ctrl-C does
//	tested-by TestName    the block is run by that test, which must exist
//	in-ci                 each command of the block is a command .ci/run runs
//	measure               a measurement: each go test and go run must name a package, a benchmark
//	                      and a test that exist; its figures are a machine's, not checked
//	skip REASON           not run, for the reason given (to the comment's end)
//
// A console block is a terminal session: "$ " begins a command (a line ending in "\" continues
// it), the lines after it are what it prints, stdout and stderr as a terminal mixes them. A sh
// block is commands alone, each of which must pass. Any other block needs a directive: an example
// nothing runs fails the test.
//
// Output is compared loosely: a line "..." stands for any number of lines, "..." within a line for
// any text, trailing blanks do not count, and what varies from run to run is read as one token on
// both sides: clock times (12:04:31), durations (29ms, 1.9 s, 0.031 seconds), robotsmith's
// version line and the version a JSON report gives.
//
// A fixture's comment may say: "needs: hugo" or "needs: jekyll" (the scenario is skipped without
// the tool, and fails under .ci/run, as testtool.Missing does), "prepare: CMD" (run once, in the
// fixture), "include: NAME" (another fixture's files first), "copy: SRC DST" (a file of this
// repository into the site) and "binary: PATH" (robotsmith's binary there, as a host's build has
// it).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// docBlock is one fenced block of a Markdown file, with the directives before it.
type docBlock struct {
	file string // the Markdown file, relative to the repository
	line int    // the line of its opening fence
	lang string // the first word of the fence's info string
	text string // its lines, without the fences and the fence's indentation
	dir  docDirectives
}

func (b *docBlock) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// docDirectives are what the comments before a block say.
type docDirectives struct {
	site        string // a scenario begins here, from this fixture
	file        string
	output      string
	config      string // the configuration file's name, for a config block
	frontMatter string
	exit        []int
	background  bool
	continued   bool
	testedBy    string
	inCI        bool
	measure     bool
	skip        string
	any         bool // some directive was given
}

// docComment is a doctest comment.
var docComment = regexp.MustCompile(`^\s*<!--\s*doctest:(.*?)-->\s*$`)

// parseDirectives adds what one comment says to d. A skip's reason runs to the comment's end,
// semicolons and all.
func parseDirectives(d *docDirectives, s string) error {
	parts := strings.Split(s, ";")
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, arg, _ := strings.Cut(part, " ")
		arg = strings.TrimSpace(arg)
		d.any = true
		needArg := func() error {
			if arg == "" {
				return fmt.Errorf("doctest %s needs an argument", name)
			}
			return nil
		}
		switch name {
		case "site":
			d.site = arg
			if err := needArg(); err != nil {
				return err
			}
		case "file":
			d.file = arg
			if err := needArg(); err != nil {
				return err
			}
		case "output":
			d.output = arg
			if err := needArg(); err != nil {
				return err
			}
		case "config":
			d.config = "robotsmith.yaml"
			if arg != "" {
				d.config = arg
			}
		case "front-matter":
			d.frontMatter = arg
			if err := needArg(); err != nil {
				return err
			}
		case "exit":
			for f := range strings.FieldsSeq(arg) {
				n, err := strconv.Atoi(f)
				if err != nil {
					return fmt.Errorf("doctest exit %q: %v", arg, err)
				}
				d.exit = append(d.exit, n)
			}
			if err := needArg(); err != nil {
				return err
			}
		case "background":
			d.background = true
		case "continued":
			d.continued = true
		case "tested-by":
			d.testedBy = arg
			if err := needArg(); err != nil {
				return err
			}
		case "in-ci":
			d.inCI = true
		case "measure":
			d.measure = true
		case "skip":
			d.skip = strings.TrimSpace(strings.Join(append([]string{arg}, parts[i+1:]...), ";"))
			if d.skip == "" {
				return errors.New("doctest skip needs a reason")
			}
			return nil
		default:
			return fmt.Errorf("unknown doctest directive %q", name)
		}
	}
	return nil
}

// docFence opens or closes a fenced block: its indentation, its fence and its info string.
var docFence = regexp.MustCompile("^( {0,3}|\\s*)(```+|~~~+)\\s*([^`]*)$")

// parseDoc reads the blocks of one Markdown file. A site directive that no block follows on the
// next line is a block of its own with no text, which begins the scenario.
func parseDoc(file string, src []byte) ([]*docBlock, error) {
	var (
		blocks  []*docBlock
		pending docDirectives
		pendAt  int // the line of the last doctest comment, 0 when none is pending
		cur     *docBlock
		fence   string
		indent  int
		body    strings.Builder
	)
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		n := i + 1
		if cur != nil {
			trim := strings.TrimSpace(l)
			if strings.HasPrefix(trim, fence[:1]) && strings.Trim(trim, fence[:1]) == "" && len(trim) >= len(fence) {
				cur.text = body.String()
				blocks = append(blocks, cur)
				cur = nil
				continue
			}
			// The fence's indentation is the block's (a fence inside a list item).
			for k := 0; k < indent && len(l) > 0 && l[0] == ' '; k++ {
				l = l[1:]
			}
			body.WriteString(l)
			body.WriteByte('\n')
			continue
		}
		if m := docComment.FindStringSubmatch(l); m != nil {
			if pendAt > 0 && pendAt != n-1 {
				if err := orphan(file, pendAt, pending, &blocks); err != nil {
					return nil, err
				}
				pending = docDirectives{}
			}
			if err := parseDirectives(&pending, m[1]); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			pendAt = n
			continue
		}
		if m := docFence.FindStringSubmatch(l); m != nil {
			cur = &docBlock{file: file, line: n, lang: strings.Fields(m[3] + " ")[0]}
			if pendAt == n-1 {
				cur.dir = pending
			} else if pendAt > 0 {
				if err := orphan(file, pendAt, pending, &blocks); err != nil {
					return nil, err
				}
			}
			pending, pendAt = docDirectives{}, 0
			fence, indent = m[2], len(m[1])
			body.Reset()
			continue
		}
		if pendAt > 0 && strings.TrimSpace(l) != "" && pendAt != n {
			if err := orphan(file, pendAt, pending, &blocks); err != nil {
				return nil, err
			}
			pending, pendAt = docDirectives{}, 0
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: the block is never closed", file, cur.line)
	}
	if pendAt > 0 {
		if err := orphan(file, pendAt, pending, &blocks); err != nil {
			return nil, err
		}
	}
	return blocks, nil
}

// orphan is a doctest comment with no block on the next line: only a site directive, alone, may be.
func orphan(file string, line int, d docDirectives, blocks *[]*docBlock) error {
	site := d.site
	alone := docDirectives{site: site, any: true}
	if site == "" || d.exit != nil || d.file != "" || d.output != "" || d.config != "" || d.frontMatter != "" ||
		d.background || d.continued || d.testedBy != "" || d.inCI || d.measure || d.skip != "" || alone.site != d.site {
		return fmt.Errorf("%s:%d: a doctest comment with no block on the next line (only \"site NAME\" may stand alone)", file, line)
	}
	*blocks = append(*blocks, &docBlock{file: file, line: line, dir: docDirectives{site: site, any: true}})
	return nil
}

// docLoose normalises what varies between runs, on both sides of a comparison.
var docLoose = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^robotsmith (devel|v[0-9]+\.[0-9]+\.[0-9]+\S*)( \(commit [^)]*\))?$`), "robotsmith <version>"},
	// The JSON report's and SARIF's version of robotsmith: a clone built with its history is
	// stamped with a pseudo-version, a copy without one says devel.
	{regexp.MustCompile(`"version": "(devel|v[0-9]+\.[0-9]+\.[0-9]+[^"]*)"`), `"version": "<version>"`},
	{regexp.MustCompile(`\b[0-9]{2}:[0-9]{2}:[0-9]{2}\b`), "<time>"},
	{regexp.MustCompile(`\b[0-9]+(\.[0-9]+)? ?(ns|µs|us|ms|s|seconds)\b`), "<duration>"},
}

func docNormalize(l string) string {
	l = strings.TrimRight(l, " \t\r")
	for _, r := range docLoose {
		l = r.re.ReplaceAllString(l, r.with)
	}
	return l
}

// docLines splits text into normalised lines, without the trailing empty ones.
func docLines(text string) []string {
	var out []string
	for l := range strings.Lines(text) {
		out = append(out, docNormalize(strings.TrimSuffix(l, "\n")))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// docLineMatches reports whether got matches want, whose "..." stand for any text.
func docLineMatches(want, got string) bool {
	if !strings.Contains(want, "...") {
		return want == got
	}
	parts := strings.Split(want, "...")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

// docMatches reports whether the lines got match want, in which a line "..." stands for any
// number of lines.
func docMatches(want, got []string) bool {
	memo := map[[2]int]bool{}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		var ok bool
		switch {
		case i == len(want):
			ok = j == len(got)
		case strings.TrimSpace(want[i]) == "...":
			for n := j; n <= len(got) && !ok; n++ {
				ok = match(i+1, n)
			}
		default:
			ok = j < len(got) && docLineMatches(want[i], got[j]) && match(i+1, j+1)
		}
		memo[k] = ok
		return ok
	}
	return match(0, 0)
}

// docCommand is one command of a console or sh block, with what it must print.
type docCommand struct {
	line int // in the Markdown file
	cmd  string
	want []string // nil for a sh block: what it prints is not compared
}

// docCommands reads the commands of a console block (with their output) or a sh block.
func docCommands(b *docBlock) []docCommand {
	var cmds []docCommand
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l, n := lines[i], b.line+1+i
		if b.lang == "console" {
			if !strings.HasPrefix(l, "$ ") {
				if len(cmds) > 0 {
					cmds[len(cmds)-1].want = append(cmds[len(cmds)-1].want, l)
				}
				continue
			}
			l = l[2:]
		} else if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, "\\") + "\n" + lines[i]
		}
		c := docCommand{line: n, cmd: l}
		if b.lang == "console" {
			c.want = []string{}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// docFixture is a site the examples run in, made once and copied for each scenario.
type docFixture struct {
	once sync.Once
	dir  string // the prepared site; "" when it could not be made
	err  string // why not: a tool that is missing, or a failure
	miss bool   // err is a missing tool
}

// docEnv is what every example runs with.
type docEnv struct {
	root     string // the repository
	bin      string // the folder of the robotsmith binary
	path     string // PATH for the examples
	env      []string
	hugo     string // Hugo's folder, "" when there is none
	jekyll   string // Jekyll, "" when there is none
	mu       sync.Mutex
	fixtures map[string]*docFixture
	temp     []string // the fixtures' folders, removed when the test ends
}

// newDocEnv builds robotsmith and finds the tools the fixtures need.
func newDocEnv(t *testing.T) *docEnv {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Dir(testtool.Robotsmith(t))
	path := bin
	// Hugo where the tests find it ($HUGO, else where .ci/run installs it), else on PATH.
	var hugo string
	cands := []string{os.Getenv("HUGO")}
	if home, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(home, ".cache", "robotsmith", "tools", "bin", "hugo"))
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := exec.Command(c, "version").Output(); err == nil {
			hugo = filepath.Dir(c)
			path += string(os.PathListSeparator) + hugo
			break
		}
	}
	if hugo == "" {
		if p, err := exec.LookPath("hugo"); err == nil {
			hugo = filepath.Dir(p)
		}
	}
	jekyll, _ := exec.LookPath("jekyll")
	path += string(os.PathListSeparator) + os.Getenv("PATH")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH", k == "GITHUB_ACTIONS", k == "GITHUB_STEP_SUMMARY", k == "CONTEXT", k == "JEKYLL_ENV",
			strings.HasPrefix(k, "CF_PAGES"), strings.HasPrefix(k, "NETLIFY"), strings.HasPrefix(k, "HUGO_"),
			strings.HasPrefix(k, "ROBOTSMITH_"):
			// What the host or CI sets would change what the examples print.
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+path, "JEKYLL_NO_BUNDLER_REQUIRE=true", "HUGO_CACHEDIR="+t.TempDir())
	e := &docEnv{root: root, bin: bin, path: path, env: env, hugo: hugo, jekyll: jekyll, fixtures: map[string]*docFixture{}}
	t.Cleanup(func() {
		for _, d := range e.temp {
			os.RemoveAll(d)
		}
	})
	return e
}

// fixture makes the named fixture once, and returns its folder.
func (e *docEnv) fixture(t *testing.T, name string) string {
	t.Helper()
	e.mu.Lock()
	f := e.fixtures[name]
	if f == nil {
		f = &docFixture{}
		e.fixtures[name] = f
	}
	e.mu.Unlock()
	f.once.Do(func() { f.dir, f.err, f.miss = e.makeFixture(name) })
	if f.miss {
		testtool.Missing(t, "%s", f.err)
	}
	if f.err != "" {
		t.Fatalf("fixture %s: %s", name, f.err)
	}
	return f.dir
}

// makeFixture makes a fixture in a folder of its own, which the test's end removes.
func (e *docEnv) makeFixture(name string) (dir, msg string, missing bool) {
	dir, err := os.MkdirTemp("", "robotsmith-doc-"+name+"-")
	if err != nil {
		return "", err.Error(), false
	}
	e.mu.Lock()
	e.temp = append(e.temp, dir)
	e.mu.Unlock()
	switch name {
	case "repo":
		// This repository as a clone has it, for the commands a user types in a clone.
		if err := copyRepo(e.root, dir); err != nil {
			return "", err.Error(), false
		}
		return dir, "", false
	case "sample":
		// The sample site, generated, beside the folder the examples run in: `robotsmith check
		// sample-site`. Its command is the stand-in generator, built once.
		gen := filepath.Join(dir, ".gen")
		if out, err := exec.Command("go", "build", "-o", gen, "./sample-site/gen").CombinedOutput(); err != nil {
			return "", fmt.Sprintf("go build ./sample-site/gen: %v\n%s", err, out), false
		}
		site := filepath.Join(dir, "sample-site")
		if err := copyTree(filepath.Join(e.root, "sample-site"), site, "public", "gen", "standin"); err != nil {
			return "", err.Error(), false
		}
		cfg := filepath.Join(site, "robotsmith.yaml")
		b, err := os.ReadFile(cfg)
		if err != nil {
			return "", err.Error(), false
		}
		if !bytes.Contains(b, []byte("command: go run ./gen")) {
			return "", "sample-site/robotsmith.yaml has no `command: go run ./gen` line to replace", false
		}
		b = bytes.Replace(b, []byte("command: go run ./gen"), []byte("command: "+gen), 1)
		if err := os.WriteFile(cfg, b, 0o644); err != nil {
			return "", err.Error(), false
		}
		if out, err := exec.Command(gen, "-C", site).CombinedOutput(); err != nil {
			return "", fmt.Sprintf("generator: %v\n%s", err, out), false
		}
		return dir, "", false
	}
	a, err := readArchive(filepath.Join(e.root, "testdata", "docs", name+".txtar"))
	if err != nil {
		return "", err.Error(), false
	}
	files := a.Files
	var prepare, copies []string
	for l := range strings.Lines(string(a.Comment)) {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ": ")
		switch {
		case !ok:
		case k == "needs" && v == "hugo" && e.hugo == "":
			return "", fmt.Sprintf("hugo not found: run .ci/run, or CGO_ENABLED=0 go install github.com/gohugoio/hugo@%s and set $HUGO", testtool.HugoVersion), true
		case k == "needs" && v == "jekyll" && e.jekyll == "":
			return "", "jekyll not found: apt-get install jekyll ruby-jekyll-sitemap", true
		case k == "include":
			// Another fixture's files first; this one's replace them.
			b, err := readArchive(filepath.Join(e.root, "testdata", "docs", v+".txtar"))
			if err != nil {
				return "", err.Error(), false
			}
			files = append(b.Files, files...)
		case k == "copy":
			copies = append(copies, v)
		case k == "binary":
			// robotsmith's binary committed to the site's repository, as a host's build runs it.
			copies = append(copies, "\x00"+v)
		case k == "prepare":
			prepare = append(prepare, v)
		}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err.Error(), false
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return "", err.Error(), false
		}
	}
	for _, c := range copies {
		// A file of this repository, as a user copies it into a site: copy: SRC DST.
		src, dst, _ := strings.Cut(c, " ")
		from, mode := filepath.Join(e.root, filepath.FromSlash(src)), os.FileMode(0o644)
		if bin, ok := strings.CutPrefix(c, "\x00"); ok {
			from, dst, mode = filepath.Join(e.bin, "robotsmith"), bin, 0o755
		}
		b, err := os.ReadFile(from)
		if err != nil {
			return "", err.Error(), false
		}
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimSpace(dst)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err.Error(), false
		}
		if err := os.WriteFile(p, b, mode); err != nil {
			return "", err.Error(), false
		}
	}
	for _, c := range prepare {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir, cmd.Env = dir, e.env
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Sprintf("%s: %v\n%s", c, err, out), false
		}
	}
	return dir, "", false
}

// copyRepo copies the repository at root as a clone has it: no .git, no build output.
func copyRepo(root, dst string) error {
	return copyTree(root, dst, ".git", "dist", "sample-site/public")
}

// copyTree copies src to dst, leaving out the folders named in skip (slash-separated, relative to
// src), keeping each file's executable bit. It is testtool.CopyTree for a fixture made once, outside
// any one test.
func copyTree(src, dst string, skip ...string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		for _, s := range skip {
			if filepath.ToSlash(rel) == s {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case info.Mode()&os.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case !info.Mode().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
}

// docScenario is a run of examples in one copy of a fixture.
type docScenario struct {
	e       *docEnv
	fixture string
	dir     string // the copy
	cwd     string // where the next command runs: dir, or where a cd example went
	bg      *docBackground
}

// docBackground is a command left running (watch), with its output so far.
type docBackground struct {
	cmd   *exec.Cmd
	out   *docBuffer
	want  []string
	done  chan error
	block *docBlock
}

// docBuffer is output written by a running process and read by the test.
type docBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *docBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *docBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newScenario copies the fixture for a scenario.
func (e *docEnv) newScenario(t *testing.T, name string) *docScenario {
	t.Helper()
	src := e.fixture(t, name)
	dir := filepath.Join(t.TempDir(), "site")
	if name == "repo" {
		// The clone's folder, named as the README's commands name it.
		dir = filepath.Join(filepath.Dir(dir), "robotsmith")
	}
	if err := copyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	return &docScenario{e: e, fixture: name, dir: dir, cwd: dir}
}

// environ is the examples' environment, with the go command's flags for a copy of the repository:
// -trimpath, so that the build cache serves what this test's own build of robotsmith compiled.
func (s *docScenario) environ() []string {
	env := s.e.env
	if s.fixture == "repo" {
		// go install puts robotsmith in a folder of the scenario's, first on PATH, never in the
		// user's own.
		gobin := filepath.Join(filepath.Dir(s.dir), "gobin")
		env = append(slices.Clone(env), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"),
			"GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+s.e.path)
	}
	return env
}

// command is a shell running one example's command in the scenario, in a process group of its
// own, so that ^C reaches every process it started, as a terminal's Ctrl-C does.
func (s *docScenario) command(ctx context.Context, line string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir, cmd.Env = s.cwd, s.environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// exitStatusOf is the exit status of a finished command, or -1 for one that did not run or end.
func exitStatusOf(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}

// docFail reports a mismatch with everything needed to fix the example: where it is, what it
// says, and what ran.
func docFail(t *testing.T, b *docBlock, line int, what string, want []string, got string) {
	t.Helper()
	t.Errorf("%s:%d: %s\n--- the example says:\n%s\n--- robotsmith printed:\n%s", b.file, line, what, strings.Join(want, "\n"), got)
}

// run runs one block of the scenario.
func (s *docScenario) run(t *testing.T, b *docBlock) {
	t.Helper()
	d := b.dir
	switch {
	case d.file != "":
		p := filepath.Join(s.cwd, filepath.FromSlash(d.file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.text), 0o644); err != nil {
			t.Fatal(err)
		}
	case d.output != "":
		got, err := os.ReadFile(filepath.Join(s.cwd, filepath.FromSlash(d.output)))
		if err != nil {
			t.Errorf("%s: %v", b, err)
			return
		}
		want := append(append([]string{"..."}, docLines(b.text)...), "...")
		if !docMatches(want, docLines(string(got))) {
			docFail(t, b, b.line, d.output+" does not hold the example's lines", docLines(b.text), string(got))
		}
	case d.config != "" || d.frontMatter != "":
		s.fresh(t, b)
	case d.continued:
		s.continueBackground(t, b)
	case b.lang == "console" || b.lang == "sh":
		s.commands(t, b)
	default:
		t.Errorf("%s: a %q block with nothing to say what it is: add a doctest comment (file, output, config, front-matter, skip...)", b, b.lang)
	}
}

// fresh checks a configuration or front matter example in a new copy of the scenario's fixture:
// robotsmith build --no-command must pass, with no warning.
func (s *docScenario) fresh(t *testing.T, b *docBlock) {
	t.Helper()
	f := s.e.newScenario(t, s.fixture)
	if b.dir.config != "" {
		if err := os.WriteFile(filepath.Join(f.dir, b.dir.config), []byte(b.text), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		p := filepath.Join(f.dir, filepath.FromSlash(b.dir.frontMatter))
		old, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: front-matter names %s, which the fixture %s does not have", b, b.dir.frontMatter, s.fixture)
		}
		src := b.text
		if !strings.HasPrefix(src, "---\n") && !strings.HasPrefix(src, "+++\n") {
			// The example's keys replace the source's front matter; its body stays.
			body := old
			if rest, ok := bytes.CutPrefix(old, []byte("---\n")); ok {
				if _, after, ok := bytes.Cut(rest, []byte("\n---\n")); ok {
					body = after
				}
			}
			src = "---\n" + b.text + "---\n" + string(body)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := f.command(ctx, "robotsmith build --no-command")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if code := exitStatusOf(err); code != 0 || strings.Contains(out.String(), "warning") {
		t.Errorf("%s: robotsmith build --no-command with this example: exit %d, want 0 and no warning:\n%s", b, code, out.String())
	}
}

// commands runs the commands of a console or sh block.
func (s *docScenario) commands(t *testing.T, b *docBlock) {
	t.Helper()
	cmds := docCommands(b)
	if len(cmds) == 0 {
		t.Errorf("%s: a %s block with no command", b, b.lang)
		return
	}
	if s.bg != nil {
		t.Fatalf("%s: a command while %s:%d still runs in the background: stop it first (^C in a continued block)", b, s.bg.block.file, s.bg.block.line)
	}
	for i, c := range cmds {
		want := 0
		switch {
		case len(b.dir.exit) == 1:
			want = b.dir.exit[0]
		case len(b.dir.exit) == len(cmds):
			want = b.dir.exit[i]
		case len(b.dir.exit) > 0:
			t.Fatalf("%s: %d exit statuses for %d commands", b, len(b.dir.exit), len(cmds))
		}
		if dir, ok := strings.CutPrefix(c.cmd, "cd "); ok && !strings.ContainsAny(dir, ";&|") {
			// A cd example moves the scenario, as it moves the reader's shell.
			s.cwd = filepath.Join(s.cwd, strings.TrimSpace(dir))
			if fi, err := os.Stat(s.cwd); err != nil || !fi.IsDir() {
				t.Fatalf("%s:%d: %s: no such folder", b.file, c.line, c.cmd)
			}
			continue
		}
		if b.dir.background && i == len(cmds)-1 {
			s.startBackground(t, b, c)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := s.command(ctx, c.cmd)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		cancel()
		code := exitStatusOf(err)
		if code != want {
			t.Errorf("%s:%d: %s: exit status %d, the example says %d\n%s", b.file, c.line, c.cmd, code, want, out.String())
			continue
		}
		if c.want != nil && !docMatches(docLines(strings.Join(c.want, "\n")), docLines(out.String())) {
			docFail(t, b, c.line, c.cmd+": the output differs", c.want, out.String())
		}
	}
}

// docWait is how long a background command has to print what its example says.
const docWait = 90 * time.Second

// startBackground starts the block's last command and waits until it has printed its example's
// lines (and maybe more).
func (s *docScenario) startBackground(t *testing.T, b *docBlock, c docCommand) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	line := c.cmd
	if !strings.ContainsAny(line, "|&;<>()$`\n") {
		// The shell gives way to the command, so that ^C reaches it as it does from a terminal's
		// interactive shell, and its status is the command's own, not that of a shell ^C ended.
		line = "exec " + line
	}
	cmd := s.command(ctx, line)
	out := &docBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	bg := &docBackground{cmd: cmd, out: out, want: c.want, done: make(chan error, 1), block: b}
	go func() { bg.done <- cmd.Wait(); cancel() }()
	t.Cleanup(func() {
		if s.bg == bg {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-bg.done
		}
	})
	s.bg = bg
	s.waitFor(t, b, c.line, c.cmd)
}

// waitFor waits until the background command has printed what its examples say so far.
func (s *docScenario) waitFor(t *testing.T, b *docBlock, line int, what string) {
	t.Helper()
	want := append(docLines(strings.Join(s.bg.want, "\n")), "...")
	deadline := time.Now().Add(docWait)
	for {
		got := s.bg.out.String()
		if docMatches(want, docLines(got)) {
			return
		}
		select {
		case err := <-s.bg.done:
			s.bg.done <- err
			if docMatches(want, docLines(s.bg.out.String())) {
				return
			}
			docFail(t, b, line, fmt.Sprintf("%s ended (exit status %d) before printing the example's lines", what, exitStatusOf(err)), s.bg.want, s.bg.out.String())
			s.bg = nil
			t.FailNow()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			docFail(t, b, line, fmt.Sprintf("%s did not print the example's lines within %v", what, docWait), s.bg.want, got)
			t.FailNow()
		}
	}
}

// continueBackground checks more of the background command's output; a last line "^C" stops it
// as Ctrl-C does, and then its whole output must be what the examples say.
func (s *docScenario) continueBackground(t *testing.T, b *docBlock) {
	t.Helper()
	if s.bg == nil {
		t.Fatalf("%s: a continued block with no command running in the background", b)
	}
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	stop := len(lines) > 0 && lines[len(lines)-1] == "^C"
	if stop {
		lines = lines[:len(lines)-1]
	}
	s.bg.want = append(s.bg.want, lines...)
	s.waitFor(t, b, b.line, "the background command")
	if !stop {
		return
	}
	bg := s.bg
	s.bg = nil
	syscall.Kill(-bg.cmd.Process.Pid, syscall.SIGINT)
	var err error
	select {
	case err = <-bg.done:
	case <-time.After(30 * time.Second):
		syscall.Kill(-bg.cmd.Process.Pid, syscall.SIGKILL)
		err = <-bg.done
		t.Errorf("%s: the background command did not stop within 30 s of ^C", b)
	}
	want := 0
	if len(b.dir.exit) > 0 {
		want = b.dir.exit[0]
	}
	if code := exitStatusOf(err); code != want {
		t.Errorf("%s: after ^C the background command exited %d, the example says %d\n%s", b, code, want, bg.out.String())
	}
	if !docMatches(docLines(strings.Join(bg.want, "\n")), docLines(bg.out.String())) {
		docFail(t, b, b.line, "the background command's whole output differs", bg.want, bg.out.String())
	}
}

// checkInCI checks that each command of a block is one .ci/run runs: a line of .ci/run that ends
// with it (after the variables it sets for CI).
func checkInCI(t *testing.T, root string, b *docBlock) {
	t.Helper()
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range docCommands(b) {
		cmd, _, _ := strings.Cut(c.cmd, "#")
		cmd = strings.TrimSpace(cmd)
		found := false
		for l := range strings.Lines(string(ci)) {
			l = strings.TrimSpace(l)
			if l == cmd || strings.HasSuffix(l, " "+cmd) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s:%d: %q is marked in-ci, and .ci/run does not run it", b.file, c.line, cmd)
		}
	}
}

// checkMeasure checks each measurement command of a block (checkGoCommand).
func checkMeasure(t *testing.T, root string, b *docBlock) {
	t.Helper()
	n := 0
	for _, c := range docCommands(b) {
		n += checkGoCommand(t, root, fmt.Sprintf("%s:%d", b.file, c.line), c.cmd)
	}
	if n == 0 {
		t.Errorf("%s: a measure block with no go test or go run", b)
	}
}

// readDocBlocks parses every Markdown file of the manual.
func readDocBlocks(t *testing.T, root string) map[string][]*docBlock {
	t.Helper()
	out := map[string][]*docBlock{}
	for _, f := range docFiles(t, root) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parseDoc(f, src)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = blocks
	}
	return out
}

// TestDocExamples runs every example of README.md, CONTRIBUTING.md and docs/ (the comment at the
// top of this file says how): each scenario in a copy of its fixture, against robotsmith built from this tree, with Hugo
// and Jekyll where a fixture needs them (skipped when they are missing, failed under .ci/run). An
// example nothing runs, or one whose output is not what robotsmith prints, fails.
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds robotsmith and runs Hugo and Jekyll; not with -short")
	}
	if raceEnabled {
		// The examples run robotsmith's binary, built without the race detector: under -race they
		// would only run again, as they did in the ordinary test run.
		t.Skip("the examples run in the ordinary test run")
	}
	e := newDocEnv(t)
	docs := readDocBlocks(t, e.root)
	type plan struct {
		fixture string
		start   *docBlock
		blocks  []*docBlock
	}
	var plans []*plan
	files := make([]string, 0, len(docs))
	for f := range docs {
		files = append(files, f)
	}
	slices.Sort(files)
	skipped := 0
	for _, f := range files {
		var cur *plan
		for _, b := range docs[f] {
			d := b.dir
			if d.site != "" {
				cur = &plan{fixture: d.site, start: b}
				plans = append(plans, cur)
			}
			switch {
			case d.skip != "":
				skipped++
				t.Logf("%s: not run: %s", b, d.skip)
			case d.testedBy != "":
				if !testExists(t, e.root, d.testedBy) {
					t.Errorf("%s: tested-by %s, and no test of that name exists", b, d.testedBy)
				}
			case d.inCI:
				checkInCI(t, e.root, b)
			case d.measure:
				checkMeasure(t, e.root, b)
			case b.lang == "" && b.text == "" && d.site != "":
				// A site directive alone.
			case cur == nil:
				t.Errorf("%s: a %q block outside any scenario: begin one with <!-- doctest: site NAME -->, or say why it is not run", b, b.lang)
			default:
				cur.blocks = append(cur.blocks, b)
			}
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("%d scenarios; %d examples not run, each for its reason above", len(plans), skipped)
	for _, p := range plans {
		if len(p.blocks) == 0 {
			t.Errorf("%s: a scenario with no example", p.start)
			continue
		}
		t.Run(p.start.String(), func(t *testing.T) {
			t.Parallel()
			s := e.newScenario(t, p.fixture)
			for _, b := range p.blocks {
				s.run(t, b)
			}
			if s.bg != nil {
				t.Errorf("%s: the command left running in the background is never stopped (^C in a continued block)", s.bg.block)
			}
		})
	}
}

// TestDocMatching: how an example's output is compared with what robotsmith printed.
func TestDocMatching(t *testing.T) {
	for _, tc := range []struct {
		desc      string
		want, got string
		match     bool
	}{
		{"the same", "a\nb\n", "a\nb\n", true},
		{"a line more", "a\n", "a\nb\n", false},
		{"a line less", "a\nb\n", "a\n", false},
		{"trailing blanks and lines do not count", "a  \nb\n\n", "a\nb   \n", true},
		{"... stands for lines", "a\n...\nd\n", "a\nb\nc\nd\n", true},
		{"... stands for no line", "a\n...\nb\n", "a\nb\n", true},
		{"... keeps the order", "b\n...\na\n", "a\nb\n", false},
		{"... within a line", "60 pages: ... public\n", "60 pages: 21 public\n", true},
		{"... within a line stays within it", "a ... c\n", "a b\nc\n", false},
		{"clock times", "12:04:31 batch\n", "09:59:00 batch\n", true},
		{"durations", "1 written in 12ms\nTotal in 29 ms\ndone in 0.031 seconds.\n", "1 written in 7.5ms\nTotal in 3 ms\ndone in 1.2 seconds.\n", true},
		{"robotsmith's version", "robotsmith v1.2.3 (commit 0123456789ab, 2026-11-27T10:00:00Z)\n", "robotsmith devel\n", true},
		{"a JSON report's version", "  \"version\": \"devel\",\n", "  \"version\": \"v0.0.0-20261127143245-502802a9d076\",\n", true},
		{"SARIF's own version stays exact", "  \"version\": \"2.1.0\",\n", "  \"version\": \"2.1.1\",\n", false},
		{"a number that is not a duration", "60 pages\n", "61 pages\n", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := docMatches(docLines(tc.want), docLines(tc.got)); got != tc.match {
				t.Errorf("docMatches(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.match)
			}
		})
	}
}

// TestParseDoc: what the runner reads of a Markdown file, and the mistakes it refuses.
func TestParseDoc(t *testing.T) {
	src := "# A page\n\n<!-- doctest: site hugo -->\n\n" +
		"<!-- doctest: file content/a.md -->\n```yaml\nrobots: noindex\n```\n\n" +
		"1. In a list:\n   <!-- doctest: exit 1 -->\n   ```console\n   $ robotsmith check\n   would change 1 file\n   ```\n"
	blocks, err := parseDoc("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		line       int
		lang, text string
		site, file string
		exit       []int
	}
	var gots []got
	for _, b := range blocks {
		gots = append(gots, got{b.line, b.lang, b.text, b.dir.site, b.dir.file, b.dir.exit})
	}
	want := []got{
		{3, "", "", "hugo", "", nil},
		{6, "yaml", "robots: noindex\n", "", "content/a.md", nil},
		{12, "console", "$ robotsmith check\nwould change 1 file\n", "", "", []int{1}},
	}
	if !slices.EqualFunc(gots, want, func(a, b got) bool {
		return a.line == b.line && a.lang == b.lang && a.text == b.text && a.site == b.site && a.file == b.file && slices.Equal(a.exit, b.exit)
	}) {
		t.Errorf("parseDoc:\ngot  %+v\nwant %+v", gots, want)
	}
	cmds := docCommands(blocks[2])
	if len(cmds) != 1 || cmds[0].cmd != "robotsmith check" || !slices.Equal(cmds[0].want, []string{"would change 1 file"}) || cmds[0].line != 13 {
		t.Errorf("docCommands: %+v", cmds)
	}
	for _, tc := range []struct{ desc, src, err string }{
		{"a directive with no block", "<!-- doctest: file a.md -->\n\ntext\n", "with no block on the next line"},
		{"an unknown directive", "<!-- doctest: fiel a.md -->\n```\n```\n", `unknown doctest directive "fiel"`},
		{"a skip without its reason", "<!-- doctest: skip -->\n```sh\nx\n```\n", "needs a reason"},
		{"a block never closed", "```sh\nx\n", "never closed"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if _, err := parseDoc("x.md", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseDoc: %v, want an error with %q", err, tc.err)
			}
		})
	}
}
