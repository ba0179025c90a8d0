package excerpt

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		desc, s, want string
	}{
		{"short, whole", "max-snippet:abc", `"max-snippet:abc"`},
		{"exactly Max", strings.Repeat("a", Max), `"` + strings.Repeat("a", Max) + `"`},
		{"long, cut with its size", "max-snippet:" + strings.Repeat("9", 10000), `"max-snippet:` + strings.Repeat("9", Max-12) + `"... (10012 bytes)`},
		{"cut between characters", strings.Repeat("é", 100), `"` + strings.Repeat("é", Max/2) + `"... (200 bytes)`},
		{"escapes count", strings.Repeat("\x00", 100), `"` + strings.Repeat(`\x00`, Max/4) + `"... (100 bytes)`},
		// Found by FuzzParseValue: shorter than Max, longer once quoted.
		{"short, but long once quoted", "000000000000" + strings.Repeat("\x13", 17) + "0", `"000000000000` + strings.Repeat(`\x13`, 17) + `"... (30 bytes)`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Quote(tc.s); got != tc.want {
				t.Errorf("Quote(%d bytes) = %s, want %s", len(tc.s), got, tc.want)
			}
		})
	}
}

func TestQuoteBound(t *testing.T) {
	for _, s := range []string{strings.Repeat("\u2028x", 500), strings.Repeat("\xff", 300), strings.Repeat("日本", 90)} {
		q := Quote(s)
		quoted, _, _ := strings.Cut(q, "...")
		if utf8.RuneCountInString(quoted) > Max+2 {
			t.Errorf("Quote(%d bytes) quotes %d characters, want at most %d: %s", len(s), utf8.RuneCountInString(quoted), Max+2, q)
		}
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		desc, s, want string
	}{
		{"short", "robots.googlebot", "robots.googlebot"},
		{"long", "robots." + strings.Repeat("x", 200), "robots." + strings.Repeat("x", Max-7) + "…"},
		{"between characters", "a" + strings.Repeat("é", 100), "a" + strings.Repeat("é", (Max-1)/2) + "…"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Cut(tc.s); got != tc.want {
				t.Errorf("Cut(%d bytes) = %q, want %q", len(tc.s), got, tc.want)
			}
		})
	}
}

func ExampleQuote() {
	fmt.Println(Quote("max-snippet:abc"))
	fmt.Println(Quote("max-snippet:" + strings.Repeat("9", 10000)))
	// Output:
	// "max-snippet:abc"
	// "max-snippet:99999999999999999999999999999999999999999999999999999999999999999999"... (10012 bytes)
}
