package config

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReferenceCoversKeys: the manual's configuration reference, docs/reference/configuration.md,
// documents every key the parser reads and no other. The keys are the closed sets the parser reads
// with (closedSets): each key of a set of keys has a section "### `path.key`" ("rules[].path",
// "robots_txt.groups[].agents"), with its type, its default and an example that the doc tests build
// with; each word of a set of values is named, as `word`, in the section of the key it is a value of.
// A section for a key the parser does not read fails too: the reference must not promise one.
func TestReferenceCoversKeys(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "docs", "reference", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := keySections(string(src))
	var keys []string
	for s := range numSets {
		cs := closedSets[s]
		if !cs.keys {
			continue
		}
		for _, w := range cs.words {
			k := w
			if cs.at != "" {
				k = cs.at + "." + w
			}
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		sec, ok := sections[k]
		if !ok {
			t.Errorf("the parser reads %q, and docs/reference/configuration.md has no section \"### `%s`\"", k, k)
			continue
		}
		for _, want := range []string{"**Type:**", "**Default:**", "<!-- doctest: config"} {
			if !strings.Contains(sec, want) {
				t.Errorf("the reference's section of %q lacks %s", k, want)
			}
		}
	}
	for k := range sections {
		if !slices.Contains(keys, k) {
			t.Errorf("docs/reference/configuration.md documents %q, a key the parser does not read", k)
		}
	}
	for s := range numSets {
		cs := closedSets[s]
		if cs.keys {
			continue
		}
		key := strings.TrimSuffix(cs.at, "[]")
		sec := sections[key]
		for _, w := range cs.words {
			if !strings.Contains(sec, "`"+w+"`") {
				t.Errorf("the reference's section of %q does not name its value `%s`", key, w)
			}
		}
	}
}

// keySections cuts the reference into the sections of its keys: a heading "### `key`" whose key
// is written as the parser's sets write paths, up to the next heading.
func keySections(src string) map[string]string {
	heading := regexp.MustCompile("^### `([a-z_]+(?:\\[\\])?(?:\\.[a-z_]+(?:\\[\\])?)*)`\\s*$")
	out := map[string]string{}
	var key string
	var body strings.Builder
	flush := func() {
		if key != "" {
			out[key] = body.String()
		}
		key = ""
		body.Reset()
	}
	inFence := false
	for l := range strings.Lines(src) {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(l, "#") {
			flush()
			if m := heading.FindStringSubmatch(l); m != nil {
				key = m[1]
			}
			continue
		}
		body.WriteString(l)
	}
	flush()
	return out
}
