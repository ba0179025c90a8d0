package llmstxt

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// dropRule is the goldens' drop function: it drops a URL by a word in its path, each word standing
// for one reason the pipeline drops a URL for.
func dropRule(url string) (bool, string) {
	for _, r := range []struct{ word, reason string }{
		{"/private/", "noindex for all crawlers"},
		{"/draft/", "no file"},
		{"/blocked/", "disallowed for every AI crawler"},
		{"/ai-no/", "AI preferences say no to AI input"},
	} {
		if strings.Contains(url, r.word) || strings.HasPrefix(url, r.word[1:]) {
			return true, r.reason
		}
	}
	return false, ""
}

func keepAll(string) (bool, string) { return false, "" }
func dropAll(string) (bool, string) { return true, "all" }

// fixtures are testdata/prune's inputs, by name.
func fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "prune", "*.input.md"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(n), ".input.md")] = b
	}
	return out
}

// TestPruneGolden prunes each testdata/prune/NAME.input.md with dropRule: NAME.golden.md is the
// output, byte for byte, and NAME.pruned.txt lists the links removed (line, action, kind, URL,
// reason).
func TestPruneGolden(t *testing.T) {
	for name, src := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			out, pruned, err := Prune(src, dropRule)
			if err != nil {
				t.Fatal(err)
			}
			var list strings.Builder
			for _, p := range pruned {
				fmt.Fprintf(&list, "%d: %s %s %s (%s)\n", p.Line, p.Action, p.Kind, p.URL, p.Reason)
			}
			golden(t, filepath.Join("prune", name+".golden.md"), out)
			golden(t, filepath.Join("prune", name+".pruned.txt"), []byte(list.String()))
			// Nothing dropped is left, and nothing else is lost.
			f, err := Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			kept := map[string]bool{}
			for _, l := range f.Links {
				if drop, _ := dropRule(l.URL); drop {
					t.Errorf("line %d: %s is still linked", l.Line, l.URL)
				}
				kept[l.URL] = true
			}
			in, _ := Parse(src)
			for _, l := range in.Links {
				if drop, _ := dropRule(l.URL); !drop && !kept[l.URL] {
					t.Errorf("line %d: %s was not to be dropped, and is gone", l.Line, l.URL)
				}
			}
			if !subsequence(out, src) {
				t.Errorf("the output is not the input with bytes deleted")
			}
		})
	}
}

// TestPassthrough: with nothing dropped, every fixture comes out byte for byte; and pruning the
// output again changes nothing.
func TestPassthrough(t *testing.T) {
	for name, src := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			out, pruned, err := Prune(src, keepAll)
			if err != nil || !bytes.Equal(out, src) || len(pruned) != 0 {
				t.Errorf("keeping everything: err %v, %d pruned, output equal %v", err, len(pruned), bytes.Equal(out, src))
			}
			once, _, err := Prune(src, dropRule)
			if err != nil {
				t.Fatal(err)
			}
			twice, again, err := Prune(once, dropRule)
			if err != nil || !bytes.Equal(once, twice) || len(again) != 0 {
				t.Errorf("pruning twice: err %v, %d more pruned, output changed %v:\n%s", err, len(again), !bytes.Equal(once, twice), twice)
			}
		})
	}
}

// TestPruneEverything: dropping every URL leaves no link in any fixture.
func TestPruneEverything(t *testing.T) {
	for name, src := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			out, _, err := Prune(src, dropAll)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := Parse(out)
			if len(f.Links) != 0 {
				t.Errorf("links left: %+v\n%s", f.Links, out)
			}
		})
	}
}

// TestPruneCases are the decisions Prune makes, one at a time.
func TestPruneCases(t *testing.T) {
	for _, tc := range []struct {
		desc, in, want string
		actions        string // the actions taken, in link order
	}{
		{"an item whose only link goes is removed", "- [a](/private/a)\n- [b](/b)\n", "- [b](/b)\n", "item removed"},
		{"the last item takes the blank line before it", "- [b](/b)\n\n- [a](/private/a)\n\nText\n", "- [b](/b)\n\nText\n", "item removed"},
		{"a list that goes takes the blank line before it", "## S\n\n- [a](/private/a)\n\n## T\n", "## S\n\n## T\n", "item removed"},
		{"a list at the top takes the blank line after it", "- [a](/private/a)\n\nText\n", "Text\n", "item removed"},
		{"an item with a link that stays is unlinked", "- [a](/private/a) or [b](/b)\n", "- a or [b](/b)\n", "unlinked"},
		{"a nested item that stays keeps its parent, unlinked", "- [a](/private/a): notes\n  - [b](/b)\n", "- a: notes\n  - [b](/b)\n", "unlinked"},
		{"an item inside a removed item", "- [a](/private/a)\n  - [b](/private/b)\n- [c](/c)\n", "- [c](/c)\n", "item removed, item removed"},
		{"an item sharing its line with its parent's marker is unlinked", "- - [a](/private/a)\n  - [c](/c)\n", "- - a\n  - [c](/c)\n", "unlinked"},
		{"a bare URL goes with the space before it", "See https://x.org/private/p for more.\n", "See for more.\n", "removed"},
		{"an autolink at the end of a line", "Contact: <https://x.org/private/c>\n", "Contact:\n", "removed"},
		{"an image keeps its alt text", "![chart](/private/chart.png)\n", "chart\n", "unlinked"},
		{"a definition goes with its lines; its references are unlinked", "[a][r] text\n\n[r]: /private/r\n  \"title\"\nEnd\n", "a text\n\nEnd\n", "unlinked, removed"},
		{"no line break at the end", "- [b](/b)\n- [a](/private/a)", "- [b](/b)\n", "item removed"},
		{"an empty destination is a link to nothing", "- [a]()\n", "- [a]()\n", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			out, pruned, err := Prune([]byte(tc.in), dropRule)
			if err != nil {
				t.Fatal(err)
			}
			var acts []string
			for _, p := range pruned {
				acts = append(acts, p.Action.String())
			}
			if string(out) != tc.want || strings.Join(acts, ", ") != tc.actions {
				t.Errorf("Prune(%q)\n got %q (%s)\nwant %q (%s)", tc.in, out, strings.Join(acts, ", "), tc.want, tc.actions)
			}
		})
	}
}

// TestPruneCallsDropOncePerURL: the drop function sees each distinct URL once, however often the
// file links it.
func TestPruneCallsDropOncePerURL(t *testing.T) {
	calls := map[string]int{}
	src := "- [a](/private/a)\n- [a again](/private/a)\n\n[x][r] and [y][r]\n\n[r]: /private/a\n"
	_, pruned, err := Prune([]byte(src), func(url string) (bool, string) {
		calls[url]++
		return dropRule(url)
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(calls) != "map[/private/a:1]" || len(pruned) != 5 {
		t.Errorf("calls %v, %d pruned; want one call for /private/a and 5 pruned", calls, len(pruned))
	}
}

func TestPruneRounds(t *testing.T) {
	// A link cannot hold a link: the brackets around one are text, and become a link once it is
	// unlinked. Each round unlinks one level.
	k := maxRounds + 2
	src := []byte(strings.Repeat("[", k) + "d" + strings.Repeat("](/private/)", k) + "\n")
	_, _, err := Prune(src, dropRule)
	if !errors.Is(err, ErrRounds) {
		t.Errorf("err = %v, want ErrRounds", err)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testtool.Golden(t, filepath.Join("testdata", name), got, *update)
}

// subsequence reports whether a is b with some bytes deleted.
func subsequence(a, b []byte) bool {
	i := 0
	for _, c := range b {
		if i < len(a) && a[i] == c {
			i++
		}
	}
	return i == len(a)
}
