package robotstxt

import (
	"slices"
	"strings"
	"testing"
)

// FuzzRobotstxt checks, on any input, that Lines numbers every line once, that Parse's model
// holds together (every line inside the file, every rule in its group), that Decide names a rule
// of the crawler's own groups and agrees with it, and that Match agrees with matchRef, a
// straightforward second implementation of the same definition.
func FuzzRobotstxt(f *testing.F) {
	for _, tc := range googleCases {
		if len(tc.robots) < 1000 {
			f.Add(tc.robots, tc.agent, PathOf(tc.url))
		}
	}
	for _, tc := range ownCases {
		f.Add(tc.robots, tc.agent, PathOf(tc.url))
	}
	for _, tc := range countCases {
		f.Add(tc.robots, "foo", "/some/path")
	}
	f.Fuzz(func(t *testing.T, robots, agent, path string) {
		n := 0
		for l := range Lines([]byte(robots)) {
			n++
			if l.Num != n {
				t.Fatalf("line %d numbered %d", n, l.Num)
			}
			if (l.Key == "") != (l.Kind == Blank || l.Kind == Comment || l.Kind == Invalid) {
				t.Fatalf("line %d: kind %s with key %q", n, l.Kind, l.Key)
			}
			if l.Value != string(trimASCII([]byte(l.Value))) || strings.ContainsAny(l.Value, "#\n\r\x00") {
				t.Fatalf("line %d: value %q not trimmed or holds a comment, line end or NUL", n, l.Value)
			}
		}
		file := Parse([]byte(robots))
		if file.NumLines != n {
			t.Fatalf("NumLines %d, Lines gave %d", file.NumLines, n)
		}
		inFile := func(l Line) {
			if l.Num < 1 || l.Num > n {
				t.Fatalf("line %d outside 1..%d", l.Num, n)
			}
		}
		for gi, g := range file.Groups {
			if len(g.Agents) == 0 {
				t.Fatalf("group %d has no agents", gi)
			}
			for _, a := range g.Agents {
				inFile(a.Line)
				if a.Kind != UserAgent || a.Global && a.Token != "" || !a.Global && a.Token != "" && !ValidAgent(a.Token) {
					t.Fatalf("group %d: bad agent %+v", gi, a)
				}
			}
			for _, r := range g.Rules {
				inFile(r.Line)
				if r.Group != gi || r.Kind != Allow && r.Kind != Disallow || r.Pattern != Escape(r.Value) {
					t.Fatalf("group %d: bad rule %+v", gi, r)
				}
			}
		}
		for _, o := range file.Other {
			inFile(o.Line)
			if o.Group < -1 || o.Group >= len(file.Groups) {
				t.Fatalf("other line %+v in no group", o)
			}
		}

		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		c := file.Crawler(agent)
		d := c.Decide(path)
		if d.Rule == nil {
			if !d.Allowed {
				t.Fatalf("disallowed by no rule")
			}
		} else {
			if !slices.Contains(c.Groups, d.Rule.Group) {
				t.Fatalf("decided by line %d of group %d, not one of %v", d.Rule.Num, d.Rule.Group, c.Groups)
			}
			if !Match(path, d.Rule.Pattern) && !Match(path, d.Rule.dir) {
				t.Fatalf("decided by line %d, whose pattern %q does not match %q", d.Rule.Num, d.Rule.Pattern, path)
			}
			if d.Allowed != (d.Rule.Allow() || d.Rule.Pattern == "") {
				t.Fatalf("allowed %v by %s line %d %q", d.Allowed, d.Rule.Kind, d.Rule.Num, d.Rule.Pattern)
			}
		}
		for _, gi := range c.Groups {
			for i := range file.Groups[gi].Rules {
				r := &file.Groups[gi].Rules[i]
				if by := c.Overruled(r); by != nil && (by.Kind == r.Kind || !slices.Contains(c.Groups, by.Group)) {
					t.Fatalf("line %d overruled by line %d of the same kind or of a group the crawler does not obey", r.Num, by.Num)
				}
			}
		}
		for _, pattern := range []string{robots, agent} {
			if len(pattern) > 200 {
				pattern = pattern[:200]
			}
			if got, want := Match(path, pattern), matchRef(path, pattern); got != want {
				t.Fatalf("Match(%q, %q) = %v, matchRef %v", path, pattern, got, want)
			}
		}
		if e := Escape(robots); Escape(e) != e {
			t.Fatalf("Escape is not idempotent on %q", robots)
		}
		if e := EscapePattern(robots); Escape(e) != e {
			t.Fatalf("EscapePattern(%q) = %q, which Escape changes", robots, e)
		} else if f := Parse([]byte("User-agent: a\nDisallow: " + e + "\n")); len(e) < 1000 && (len(f.Groups) != 1 || len(f.Groups[0].Rules) != 1 || f.Groups[0].Rules[0].Pattern != e) {
			t.Fatalf("Disallow: %s is not read back as written", e)
		}
		if p := PathOf(robots); !strings.HasPrefix(p, "/") {
			t.Fatalf("PathOf(%q) = %q", robots, p)
		}
	})
}

// matchRef is the definition of Match spelt out: the set of path positions that the pattern read
// so far can reach, '*' reaching every position from the first on.
func matchRef(path, pattern string) bool {
	reach := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i == len(pattern)-1 {
			return slices.Contains(reach, len(path))
		}
		var next []int
		if c == '*' {
			for p := reach[0]; p <= len(path); p++ {
				next = append(next, p)
			}
		} else {
			for _, p := range reach {
				if p < len(path) && path[p] == c {
					next = append(next, p+1)
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		reach = next
	}
	return true
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		path, pattern string
		want          bool
	}{
		{"/a", "", true},
		{"/", "/", true},
		{"/", "/$", true},
		{"/a", "/$", false},
		{"/a/b/c", "/*/c", true},
		{"/a/b/c", "/*/c$", true},
		{"/a/b/c/d", "/*/c$", false},
		{"/a/c/c", "/*c/c$", true},
		{"/ab", "/a**b", true},
		{"/a$", "/a$$", true},
		{"/x.php5", "/*.php$", false},
		{"/x.php.php", "/*.php$", true},
		{"/aaa", "/*a*a*a*a", false},
		{"", "*", true},
		{"", "$", true},
	} {
		t.Run(tc.path+" "+tc.pattern, func(t *testing.T) {
			if got := Match(tc.path, tc.pattern); got != tc.want {
				t.Errorf("Match(%q, %q) = %v, want %v", tc.path, tc.pattern, got, tc.want)
			}
			if got := matchRef(tc.path, tc.pattern); got != tc.want {
				t.Errorf("matchRef(%q, %q) = %v, want %v", tc.path, tc.pattern, got, tc.want)
			}
		})
	}
}
