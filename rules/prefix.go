package rules

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/internal/suggest"
	"github.com/robotsmith/robotsmith/problem"
)

// AgentPrefix returns the crawler an item of a value names before its directives, as X-Robots-Tag
// writes it ("googlebot" and "noindex" for "googlebot: noindex"), and the rest; "" and the item when
// it names none. A directive's own name before its colon (max-snippet: 50, unavailable_after: ...)
// is no crawler, nor is a name that looks like a misspelt directive (max-snipet: 50), which the
// directive's parser reports as such.
func AgentPrefix(item string) (agent, rest string) {
	item = strings.TrimSpace(item)
	name, after, ok := strings.Cut(item, ":")
	if !ok {
		return "", item
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if !IsAgentName(name) {
		return "", item
	}
	return name, strings.TrimSpace(after)
}

// IsAgentName reports whether a lower-case name can name a crawler before a colon, in a value or
// an X-Robots-Tag line: a robots.txt product token that is not a directive's name (nor one within
// reach of a misspelling of it).
func IsAgentName(name string) bool {
	return name != "" && isAgentToken(name) && !isDirectiveName(name)
}

// isAgentToken reports whether s can be a crawler's name before a colon: a robots.txt product token
// in lower case.
func isAgentToken(s string) bool {
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// isDirectiveName reports whether name is a directive robotsmith reads, an obsolete one, or one
// within reach of a misspelling of either.
func isDirectiveName(name string) bool {
	switch name {
	case "noodp", "noydir", "nositelinkssearchbox":
		return true
	}
	known := knownDirectives()
	for _, k := range known {
		if k == name {
			return true
		}
	}
	_, d := suggest.Nearest(name, known)
	return d <= maxTypoEdits
}

// splitAgents reads a value that names crawlers inside it as X-Robots-Tag does: the directives
// after "googlebot:" are googlebot's, up to the next crawler's name, and those before the first name
// are the input's own agent's. An author who wrote `robots: "googlebot: noindex"` meant googlebot
// not to index the page; read as one list, "googlebot" was an unknown directive, dropped, and the
// page stayed public for googlebot. A value that names no crawler is in itself, unchanged. The
// warning says how the value was read, and where to write it.
func splitAgents(in Input) ([]Input, []Warning) {
	items, loose := SplitDirectives(in.Value)
	named := false
	for _, it := range items {
		if a, _ := AgentPrefix(it); a != "" {
			named = true
			break
		}
	}
	if !named {
		return []Input{in}, nil
	}
	var (
		out   []Input
		names []string
	)
	agent := strings.ToLower(strings.TrimSpace(in.Agent))
	if agent == "" {
		agent = "robots"
	}
	add := func(dir string) {
		if len(out) == 0 || out[len(out)-1].Agent != agent {
			x := in
			x.Agent, x.Value = agent, ""
			out = append(out, x)
		}
		if x := &out[len(out)-1]; dir != "" {
			if x.Value != "" {
				x.Value += ", "
			}
			x.Value += dir
		}
	}
	// What follows a crawler's name is split again: "googlebot: noindex bingbot: noindex" is one
	// item to SplitDirectives, which separates spaces only between directives it knows.
	for len(items) > 0 {
		it := items[0]
		items = items[1:]
		a, rest := AgentPrefix(it)
		if a == "" {
			add(it)
			continue
		}
		agent = a
		names = append(names, a)
		add("")
		more, l := SplitDirectives(rest)
		if loose == "" {
			loose = l
		}
		items = append(more, items...)
	}
	var ws []Warning
	if loose != "" {
		ws = append(ws, Warning{Source: in.Source, Code: problem.LooseSeparators, Msg: loose})
	}
	ws = append(ws, Warning{Source: in.Source, Code: problem.AgentInsideValue, Msg: fmt.Sprintf(
		"%s names a crawler inside the value (%s): read as X-Robots-Tag reads it, the directives after a crawler's name for that crawler alone; give them under its own name (robots: {%s: ...})",
		excerpt.Quote(in.Value), strings.Join(names, ", "), names[0])})
	return out, ws
}
