package diff

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/internal/suggest"
)

// DefaultFailOn is --fail-on when it is not given (SPEC §11): the home page leaving the index, or
// more than a tenth of the URLs in the index.
const DefaultFailOn = "home,noindex:10%"

// RuleKind is what a --fail-on rule watches.
type RuleKind int

// The rules, as --fail-on names them.
const (
	FailHome    RuleKind = iota + 1 // home: a home page leaves the index
	FailNoindex                     // noindex:N, noindex:N%: more than N URLs (N per cent) leave the index
	FailSitemap                     // sitemap:N, sitemap:N%: more than N URLs (N per cent) leave the sitemaps
	FailRobots                      // robots: robots.txt newly keeps a search crawler from an indexable URL
	FailAny                         // any: any change
)

var ruleNames = [...]string{FailHome: "home", FailNoindex: "noindex", FailSitemap: "sitemap", FailRobots: "robots", FailAny: "any"}

// Rule is one rule of --fail-on.
type Rule struct {
	Kind    RuleKind
	N       float64 // the threshold of noindex and sitemap
	Percent bool    // N is a percentage of the URLs in the index (in a sitemap) in OLD
}

// String is the rule as --fail-on writes it: "noindex:10%".
func (r Rule) String() string {
	s := ruleNames[r.Kind]
	if r.Kind == FailNoindex || r.Kind == FailSitemap {
		s += ":" + strconv.FormatFloat(r.N, 'f', -1, 64)
		if r.Percent {
			s += "%"
		}
	}
	return s
}

// FailOn is the rules of --fail-on; empty for none.
type FailOn []Rule

// String is the rules as --fail-on writes them, "none" for none.
func (f FailOn) String() string {
	if len(f) == 0 {
		return "none"
	}
	var parts []string
	for _, r := range f {
		parts = append(parts, r.String())
	}
	return strings.Join(parts, ",")
}

// ParseFailOn reads --fail-on: rules separated by commas (home, noindex:N, noindex:N%, sitemap:N,
// sitemap:N%, robots, any), or none. A rule it does not know, or one with a bad threshold, is an
// error saying what it takes, with the nearest rule for a misspelt one.
func ParseFailOn(s string) (FailOn, error) {
	f := FailOn{}
	if strings.TrimSpace(s) == "none" {
		return f, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, arg, hasArg := strings.Cut(part, ":")
		kind := RuleKind(0)
		for k, n := range ruleNames {
			if k > 0 && strings.EqualFold(name, n) {
				kind = RuleKind(k)
			}
		}
		if kind == 0 {
			msg := fmt.Sprintf("unknown rule %s", excerpt.Quote(name))
			if name == "none" {
				msg = "none fails on nothing: it cannot go with other rules"
			} else if best, d := suggest.Nearest(strings.ToLower(name), append(ruleNames[1:], "none")); best != "" && d <= 2 && d < len(name) {
				msg += fmt.Sprintf("; did you mean %q?", best)
			}
			return nil, errors.New(msg + " (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)")
		}
		r := Rule{Kind: kind}
		switch {
		case kind == FailNoindex || kind == FailSitemap:
			if !hasArg {
				return nil, fmt.Errorf("%s needs a threshold: %s:N (more than N URLs) or %s:N%% (more than N per cent)", ruleNames[kind], ruleNames[kind], ruleNames[kind])
			}
			num, pct := strings.CutSuffix(strings.TrimSpace(arg), "%")
			n, err := strconv.ParseFloat(num, 64)
			switch {
			case err != nil || n < 0 || n != n || (!pct && n != float64(int64(n))):
				return nil, fmt.Errorf("%s: the threshold %s is not a count (N) or a percentage (N%%)", ruleNames[kind], excerpt.Quote(arg))
			case pct && n > 100:
				return nil, fmt.Errorf("%s: the threshold %s is more than 100%%", ruleNames[kind], excerpt.Quote(arg))
			}
			r.N, r.Percent = n, pct
		case hasArg:
			return nil, fmt.Errorf("%s takes no threshold, got %s", ruleNames[kind], excerpt.Quote(part))
		}
		f = append(f, r)
	}
	if len(f) == 0 {
		return nil, errors.New("no rule given (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)")
	}
	return f, nil
}

// Failure is a rule of --fail-on that a comparison meets, and how.
type Failure struct {
	Rule   string `json:"rule"`   // as --fail-on writes it: "noindex:10%"
	Reason string `json:"reason"` // "12 of 90 URLs in the index leave it (13.3%)"
}

// Check is the rules s meets, in the order given.
func (f FailOn) Check(s *Summary) []Failure {
	out := []Failure{}
	for _, r := range f {
		var reason string
		switch r.Kind {
		case FailHome:
			if len(s.Home) > 0 {
				h := s.Home[0]
				reason = "the home page " + h.URL + " leaves the index: " + h.Why
				if h.Why == string(Removed) {
					reason = "the home page " + h.URL + " is removed"
				}
				if h.Source.Text != "" {
					reason += " (" + h.Source.Text + ")"
				}
				if n := len(s.Home); n > 1 {
					reason += fmt.Sprintf(", and %d more home pages", n-1)
				}
			}
		case FailNoindex:
			if over(r, s.LeaveIndex, s.OldIndexed) {
				reason = fmt.Sprintf("%s of %s in the index leave it%s", count(s.LeaveIndex), plural(s.OldIndexed, "URL"), percent(s.LeaveIndex, s.OldIndexed))
			}
		case FailSitemap:
			if over(r, s.LeaveSitemap, s.OldListed) {
				reason = fmt.Sprintf("%s of %s in a sitemap leave it%s", count(s.LeaveSitemap), plural(s.OldListed, "URL"), percent(s.LeaveSitemap, s.OldListed))
			}
		case FailRobots:
			if s.RobotsBlocked > 0 {
				reason = fmt.Sprintf("robots.txt newly keeps Googlebot or Bingbot from %s they may index", plural(s.RobotsBlocked, "URL"))
			}
		case FailAny:
			if s.Changed > 0 {
				reason = plural(s.Changed, "URL") + " changed"
			}
		}
		if reason != "" {
			out = append(out, Failure{Rule: r.String(), Reason: reason})
		}
	}
	return out
}

// over reports whether n is more than the rule's threshold: a count, or a percentage of of.
func over(r Rule, n, of int) bool {
	if r.Percent {
		return of > 0 && float64(n)*100 > r.N*float64(of)
	}
	return float64(n) > r.N
}

func count(n int) string { return strconv.Itoa(n) }

// percent is " (13.3%)", or "" when of is 0.
func percent(n, of int) string {
	if of == 0 {
		return ""
	}
	return " (" + strconv.FormatFloat(float64(n)*100/float64(of), 'f', 1, 64) + "%)"
}

// plural is "1 URL", "2 URLs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
