package suggest

import "testing"

func TestNearest(t *testing.T) {
	known := []string{"noindex", "nofollow", "none", "index"}
	for _, tc := range []struct {
		desc, w, want string
		dist          int
	}{
		{"one letter dropped", "noindx", "noindex", 1},
		{"hyphen inserted", "no-index", "noindex", 1},
		{"one letter dropped, other word", "nofolow", "nofollow", 1},
		{"exact", "none", "none", 0},
		{"Cyrillic і is one edit", "noіndex", "noindex", 1},
		{"tie goes to the first listed", "xndex", "index", 1},
		{"two neighbours swapped is one edit", "noinedx", "noindex", 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, d := Nearest(tc.w, known)
			if got != tc.want || d != tc.dist {
				t.Errorf("Nearest(%q) = %q, %d; want %q, %d", tc.w, got, d, tc.want, tc.dist)
			}
		})
	}
	if got, d := Nearest("max-snippet", known); d <= 2 {
		t.Errorf("Nearest(%q) = %q at %d edits; want it far (more than 2 edits) from every word", "max-snippet", got, d)
	}
	if got, d := Nearest("x", nil); got != "" || d != -1 {
		t.Errorf("Nearest with no known words = %q, %d; want \"\", -1", got, d)
	}
}

func TestASCII(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{{"noindex", true}, {"noіndex", false}, {"", true}, {"max-snippet:50", true}, {"ｎoindex", false}} {
		if got := ASCII(tc.s); got != tc.want {
			t.Errorf("ASCII(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"googlebot", "googlebot", 0},
		{"googlebto", "googlebot", 1},
		{"gptbto", "gptbot", 1},
		{"ab", "ba", 1},
		{"abc", "bca", 2},
		{"bingbott", "bingbot", 1},
		{"gooblebot-news", "googlebot-news", 1},
		{"", "abc", 3},
		{"gоoglebot", "googlebot", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestResembles(t *testing.T) {
	known := []string{"path", "kind", "lang", "language", "googlebot", "ccbot", "msnbot"}
	for _, tc := range []struct {
		desc, w, want string
	}{
		{"two neighbours swapped in a short word", "paht", "path"},
		{"a plural of a short word", "kinds", "kind"},
		{"one letter dropped from a long word", "languge", "language"},
		{"two edits from a long word", "lnaguage", "language"},
		{"a plural of a long word", "languages", "language"},
		{"two edits from a crawler name", "gogglebot-", "googlebot"},
		{"Cyrillic lookalike", "pаth", "path"},
		{"two edits from two short words is no typo", "mybot", ""},
		{"two edits from a short word is no typo", "ki", ""},
		{"equal is no typo", "kind", ""},
		{"far from everything", "otherbot", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, ok := Resembles(tc.w, known)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Resembles(%q) = %q, %v; want %q, %v", tc.w, got, ok, tc.want, tc.want != "")
			}
		})
	}
}
