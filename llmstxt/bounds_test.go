package llmstxt

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestBounds: inputs built to make a Markdown parser slow are read within a bound on time, or
// refused with a *LimitError naming the line. Without the bounds, 262,144 bytes of nested
// blockquotes (">>>>...") took 59 s and 87,381 "[](" on one line 74 s (goldmark's work grows with
// the square of either).
func TestBounds(t *testing.T) {
	nestedList := func(depth int) string {
		var b strings.Builder
		for i := 0; i < depth; i++ {
			b.WriteString(strings.Repeat("  ", i) + "- [a](/private/)\n")
		}
		return b.String()
	}
	const n = 1 << 18
	for _, tc := range []struct {
		desc    string
		in      string
		refused bool
	}{
		{"nested blockquotes", strings.Repeat(">", n) + " x", true},
		{"nested blockquotes within the bound", strings.Repeat("> ", MaxIndent/2) + "[a](/private/)\n", false},
		{"nested lists", nestedList(2000), true},
		{"nested lists within the bound", nestedList(MaxIndent / 2), false},
		{"unclosed destinations on one line", strings.Repeat("[](", n/3), true},
		{"unclosed destinations on many lines", strings.Repeat(strings.Repeat("[](", 300)+"\n", 300), false},
		// Just within MaxLinkWork: (3k)²/2 ≈ 2^28 for k = 7,700.
		{"unclosed destinations on one line within the bound", strings.Repeat("[](", 7700), false},
		{"open brackets", strings.Repeat("[", n), false},
		{"emphasis", strings.Repeat("*a", n/2), false},
		{"links to prune", strings.Repeat("[a](/private/) ", n/16), false},
		{"items to prune", strings.Repeat("- [a](/private/a)\n", n/18), false},
		{"definitions to prune", strings.Repeat("[a]: /private/\n", n/16), false},
		{"references", "[a]: /private/\n\n" + strings.Repeat("[a] ", n/4), false},
		{"bare URLs", strings.Repeat("https://x.org/private/ ", n/24), false},
		{"nested links", strings.Repeat("[", 6) + "d" + strings.Repeat("](/private/)", 6), false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			start := time.Now()
			_, _, err := Prune([]byte(tc.in), dropRule)
			took := time.Since(start)
			var le *LimitError
			if got := errors.As(err, &le); got != tc.refused {
				t.Errorf("refused = %v (%v), want %v", got, err, tc.refused)
			}
			if err != nil && !tc.refused {
				t.Errorf("err = %v", err)
			}
			// A bound on failure, not a measure: each takes well under a second on an idle
			// machine; the quadratic cases took a minute.
			bound := 10 * time.Second
			if raceEnabled {
				bound *= 10
			}
			if took > bound {
				t.Errorf("took %v for %d bytes", took, len(tc.in))
			}
			t.Logf("%d bytes in %v", len(tc.in), took)
		})
	}
}
