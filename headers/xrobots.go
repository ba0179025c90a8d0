package headers

import (
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// Directives is what an X-Robots-Tag header means: the directives for all
// crawlers and, per agent, the ones after that agent's prefix. Values are
// lower case; unavailable_after keeps its date.
type Directives struct {
	Generic map[string]bool
	Agents  map[string]map[string]bool
	// Warning says how a value whose directives are separated by spaces, semicolons or line
	// breaks was read, and to use commas (rules.SplitDirectives): a problem of code
	// problem.LooseSeparators, without a place (the caller knows the header's); nil when commas
	// alone separate them. Equal ignores it.
	Warning *problem.Problem
}

// Interpret reads one X-Robots-Tag header value the way Google and MDN
// describe it: a directive belongs to the agent named before it, or to all
// crawlers when no agent was named yet. Both hosts fold repeated lines into
// one value joined with ", ", so Interpret(strings.Join(lines, ", ")) is what
// a crawler reads from a file's Lines. Directives are split as rules splits a
// page's (rules.SplitDirectives): spaces, semicolons and line breaks between
// known directives separate them too, with a Warning.
func Interpret(value string) Directives {
	d := Directives{Generic: map[string]bool{}, Agents: map[string]map[string]bool{}}
	cur := d.Generic
	items, warning := rules.SplitDirectives(value)
	if warning != "" {
		d.Warning = problem.New(problem.LooseSeparators, problem.Position{}, warning)
	}
	for _, item := range items {
		agent, rest := rules.AgentPrefix(item)
		if agent != "" {
			if d.Agents[agent] == nil {
				d.Agents[agent] = map[string]bool{}
			}
			cur = d.Agents[agent]
		}
		if rest = strings.ToLower(strings.TrimSpace(rest)); rest != "" {
			cur[normalizeValued(rest)] = true
		}
	}
	return d
}

// normalizeValued writes "max-snippet : 5" as "max-snippet:5": what is left of an item once its
// crawler's name is taken (rules.AgentPrefix) is a directive, and one with a colon has a value.
func normalizeValued(s string) string {
	name, v, ok := strings.Cut(s, ":")
	if !ok {
		return s
	}
	return strings.TrimSpace(name) + ":" + strings.TrimSpace(v)
}

// Equal reports whether d and e hold the same directives for the same agents.
func (d Directives) Equal(e Directives) bool {
	if !sameSet(d.Generic, e.Generic) || len(d.Agents) != len(e.Agents) {
		return false
	}
	for a, s := range d.Agents {
		t, ok := e.Agents[a]
		if !ok || !sameSet(s, t) {
			return false
		}
	}
	return true
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// checkLines reports what is wrong with one file's lines, or "": every line
// must be one header line with something in it, and the generic line (no
// Agent) must come first, since a host joins the lines into one header in
// which a bare directive after "googlebot: ..." would belong to googlebot.
func checkLines(lines []rules.HeaderLine) string {
	sawAgent := ""
	for i, l := range lines {
		n := strconv.Itoa(i + 1)
		if strings.ContainsAny(l.Agent, "\r\n\x00") || strings.ContainsAny(l.Content, "\r\n\x00") {
			return "X-Robots-Tag line " + n + " holds a line break"
		}
		if strings.TrimSpace(l.Content) == "" {
			return "X-Robots-Tag line " + n + " is empty"
		}
		switch a := l.Agent; {
		case a != "" && !rules.IsAgentName(a):
			return "X-Robots-Tag line " + n + ": " + strconv.Quote(a) + " cannot name an agent (a host would not read it as one)"
		case a != "":
			sawAgent = a
		case sawAgent != "":
			return "X-Robots-Tag line " + n + " (" + strings.TrimSpace(l.Content) + ") has no agent but follows the line for " +
				sawAgent + "; the host joins the lines, so it would apply to " + sawAgent + " only: put generic directives first"
		}
	}
	return ""
}
