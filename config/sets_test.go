package config

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSuggestions walks every closed set of the configuration (closedSets, the sets the parser
// reads with) and writes each of its words misspelt where the set is written: each is an error
// saying "did you mean" that word, in YAML and in JSON. Each word is also written rightly, and is
// not an unknown key or value. A set or word added to the parser is walked here without a change.
func TestSuggestions(t *testing.T) {
	for s := range numSets {
		cs := closedSets[s]
		if len(cs.words) == 0 {
			t.Errorf("set %d (%q) has no words", s, cs.at)
			continue
		}
		for _, w := range cs.words {
			typos := typosOf(w, s)
			if len(typos) == 0 {
				t.Errorf("%q of set %q: no misspelling of it is nearer to it than to the set's other words", w, cs.at)
			}
			for _, typo := range typos {
				t.Run(cs.at+"/"+typo, func(t *testing.T) {
					src := placed(t, cs.at, cs.keys, typo)
					want := `did you mean "` + w + `"?`
					if s == selectorKeys {
						want = `(did you mean "` + w + `"?)`
					}
					for _, file := range []string{"robotsmith.yaml", "robotsmith.json"} {
						_, err := Parse(file, src)
						if err == nil || !strings.Contains(err.Error(), want) {
							t.Errorf("%s %s: got %v, want an error with %q", file, src, err, want)
						}
					}
				})
			}
			t.Run(cs.at+"/"+w, func(t *testing.T) {
				src := placed(t, cs.at, cs.keys, w)
				_, err := Parse("robotsmith.json", src)
				// A key's value "x" may be wrong for it; the key itself is known. A value is right.
				if cs.keys && err != nil && strings.Contains(err.Error(), "unknown key "+quote(w)) || !cs.keys && err != nil {
					t.Errorf("%s: got %v, want %q taken as one of the set", src, err, w)
				}
			})
		}
	}
}

// typosOf are misspellings of w (two letters swapped, one dropped, one doubled) that suggest
// finds nearest to w of the words of s and that are not words of s themselves.
func typosOf(w string, s set) []string {
	var out []string
	cands := []string{w[:len(w)-1], w[:1] + w}
	if len(w) >= 3 {
		cands = append(cands, w[:1]+w[2:3]+w[1:2]+w[3:])
	}
	for _, c := range cands {
		if near, ok := s.nearest(c); ok && near == w && !slices.Contains(s.words(), c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// placed is a configuration, as JSON (which is YAML too), that writes word at path at: as a key of
// the map there when keys is set, else as its value.
func placed(t *testing.T, at string, keys bool, word string) []byte {
	var v any = word
	if keys {
		v = map[string]any{word: "x"}
	}
	parts := strings.Split(at, ".")
	if at == "" {
		parts = nil
	}
	for i := len(parts) - 1; i >= 0; i-- {
		name, list := strings.CutSuffix(parts[i], "[]")
		if list {
			v = []any{v}
		}
		v = map[string]any{name: v}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
