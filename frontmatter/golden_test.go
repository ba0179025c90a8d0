package frontmatter

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files in testdata")

// TestGolden parses every file in testdata and compares a readable account of
// the result (format, key lines, Robots, Cascades, errors) with its .golden
// file. Regenerate with `go test -run TestGolden -update`.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range files {
		if strings.HasSuffix(file, ".golden") {
			continue
		}
		n++
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := account(name, src)
			golden := file + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no files in testdata")
	}
}

// dialectOf reads a file named jekyll-* with Jekyll's rules, any other with Hugo's.
func dialectOf(name string) Dialect {
	if strings.HasPrefix(name, "jekyll-") {
		return Jekyll
	}
	return Hugo
}

// account describes what the package makes of one file.
func account(name string, src []byte) string {
	var b strings.Builder
	d, err := Parse(name, src, dialectOf(name))
	if err != nil {
		fmt.Fprintf(&b, "parse error: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "format: %q\nbody: %q\n", d.Format, d.Body)
	if d.Root != nil {
		keys := append([]Key(nil), d.Root.Keys...)
		sort.Slice(keys, func(i, j int) bool { return keys[i].Name < keys[j].Name })
		for _, k := range keys {
			fmt.Fprintf(&b, "key %s at line %d: %#v\n", k.Name, d.Line(k.Off), k.Value.Any(false))
		}
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(&b, "warning: %v\n", w)
	}
	in, err := d.Robots()
	for _, i := range in {
		fmt.Fprintf(&b, "robots input: %s: %q from %s\n", i.Agent, i.Value, i.Source)
	}
	if err != nil {
		fmt.Fprintf(&b, "robots error: %v\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	cs, err := d.Cascades()
	for _, c := range cs {
		var ins []string
		for _, in := range c.Inputs {
			ins = append(ins, fmt.Sprintf("{%s %s %v}", in.Agent, in.Value, in.Source))
		}
		fmt.Fprintf(&b, "cascade at line %d: target %+v values %v inputs [%s]\n", c.Line, c.Target, c.Values.Any(false), strings.Join(ins, " "))
	}
	if err != nil {
		fmt.Fprintf(&b, "cascade error: %v\n", err)
	}
	return b.String()
}
