package rules

import "strings"

// Class is what kind of page or file a Decision is for.
type Class int

const (
	Public    Class = iota // indexable: the full tag form
	NonPublic              // robots has noindex: the noindex-only form
	ErrorPage              // an error page: no robots tags at all
	Redirect               // a redirect stub: no robots tags at all
)

// String gives "public", "noindex", "error page" or "redirect".
func (c Class) String() string {
	switch c {
	case Public:
		return "public"
	case NonPublic:
		return "noindex"
	case ErrorPage:
		return "error page"
	case Redirect:
		return "redirect"
	}
	return "class?"
}

// Decision is the resolved result for one page or file.
type Decision struct {
	Path   string
	Class  Class
	Agents []Agent // "robots" first, then googlebot, bingbot, then other agents alphabetically
	// Replaced are the inherited values the generator does not give the page (Input.ReplacedBy),
	// in the order of its sources: not merged, listed for explain.
	Replaced []Replaced

	style Style
	sets  map[string]*agentSets // per agent name, including "robots"; read with of
	extra []string              // unknown agent names for Directives.Agents
}

// Agent is one agent's resolved set: the agent's own values plus "robots" values (additive), in the
// fixed order of SPEC §4, each with the Source that won it.
type Agent struct {
	Name   string
	Values []Value
}

// Value is one resolved directive and the source that won it.
type Value struct {
	Token  string // "noindex", "max-snippet:50", "unavailable_after:2027-01-31T00:00:00Z"
	Source Source
}

// Replaced is an inherited value that a key of the same name replaces (SPEC §3.3): what it said
// and where, and the key that replaces it.
type Replaced struct {
	Agent  string   // "robots" for every crawler, else the crawler's name
	Tokens []string // its directives, as a resolved value is written: "noindex", "max-snippet:5"
	Source Source   // where it was: "cascade from content/blog/_index.md:4"
	By     Source   // the key that replaces it: "front matter robots at content/blog/a.md:3"
}

// String is what explain prints: "robots: noindex  cascade from content/blog/_index.md:4; replaced
// by front matter robots at content/blog/a.md:3".
func (r Replaced) String() string {
	return r.Agent + ": " + strings.Join(r.Tokens, ", ") + "  " + r.Source.String() + "; replaced by " + r.By.String()
}

// Content gives the tokens joined with ", ".
func (a Agent) Content() string { return joinValues(a.Values) }

// Agent returns the named agent's resolved set, and whether any source named it.
func (d Decision) Agent(name string) (Agent, bool) {
	for _, a := range d.Agents {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

func (d Decision) robots() set { return d.of("robots").own }

// of is what the inputs gave the named agent; nothing when none named it.
func (d Decision) of(name string) *agentSets {
	if a := d.sets[name]; a != nil {
		return a
	}
	return &agentSets{}
}

// defaults is the set the defaults gave the named agent, empty when they gave none.
func (d Decision) defaults(name string) set {
	if s := d.of(name).defaults; s != nil {
		return *s
	}
	return set{}
}

// bingAgents are the meta names Bing reads besides "robots" (Bing help: tag
// names robots, bingbot, msnbot).
func bingAgents() [2]string { return [...]string{"bingbot", "msnbot"} }

// generic is the robots set as written where every crawler reads it (the
// robots tag, the X-Robots-Tag line without a prefix). Bing reads it together
// with its own tags or lines, and takes nocache and noarchive together as the
// weaker nocache (SPEC §4: when both are asked for only noarchive is
// written). So when robots asks for nocache and a Bing agent for noarchive,
// the generic set carries that noarchive, which drops nocache from it: the
// more restrictive value for everyone else, and Google reads neither.
func (d Decision) generic() set {
	g := d.robots()
	if !g[slotNocache].has || g[slotNoarchive].has {
		return g
	}
	for _, name := range bingAgents() {
		if e := d.of(name).own[slotNoarchive]; e.has {
			g.add(e)
		}
	}
	return g
}

// Directives is what rewrite must do to the page (SPEC §5): Three/Single/noindex-only forms, plus one
// tag per other named agent; Clear with no tags for ErrorPage and Redirect.
//
// Tags whose content would be empty (possible only with config defaults that
// give nothing) are left out; a page left with no tag at all is cleared.
func (d Decision) Directives() Directives {
	out := Directives{Agents: append([]string(nil), d.extra...)}
	robots := d.generic()
	var tags []Tag
	addTag := func(name string, s set) {
		if c := s.content(); c != "" {
			tags = append(tags, Tag{Name: name, Content: c})
		}
	}
	switch {
	case d.Class == ErrorPage || d.Class == Redirect:
	case d.Class == NonPublic:
		addTag("robots", robots)
	case d.style == Single && len(d.Agents) > 0:
		base := robots.merged(d.defaults("googlebot")).merged(d.defaults("bingbot"))
		addTag("robots", base)
		for _, a := range d.Agents[1:] {
			as := d.of(a.Name)
			// googlebot and bingbot defaults are folded into the robots tag;
			// any other agent's values, even from the defaults, need its tag.
			if as.nonDefault || (agentRank(a.Name) == 3 && !as.own.empty()) {
				addTag(a.Name, base.merged(as.own))
			}
		}
	default:
		addTag("robots", robots)
		for _, name := range []string{"googlebot", "bingbot"} {
			addTag(name, robots.merged(d.of(name).own))
		}
		for _, a := range d.Agents {
			if agentRank(a.Name) == 3 {
				addTag(a.Name, robots.merged(d.of(a.Name).own))
			}
		}
	}
	out.Tags = tags
	out.Clear = len(tags) == 0
	return out
}

// HeaderLine is one X-Robots-Tag value of a file, as structured data: headers writes it and never
// has to read an agent back out of a string.
type HeaderLine struct {
	Agent   string // "" for the line every crawler reads; else the agent the line is for ("googlebot")
	Content string // the directives, joined with ", ": "noindex, nofollow"
}

// String is the line as a host sends it: "noindex, nofollow", or "googlebot: nosnippet".
func (l HeaderLine) String() string {
	if l.Agent == "" {
		return l.Content
	}
	return l.Agent + ": " + l.Content
}

// HeaderLines are the X-Robots-Tag values for a file (SPEC §6): the generic line first
// ("noindex, nofollow"), then one line per agent ("googlebot: nosnippet") holding only what that agent
// adds beyond the generic line and beyond the built-in/config defaults. Empty agent lines are omitted.
// Error pages and redirect stubs get no lines.
func (d Decision) HeaderLines() []HeaderLine {
	if d.Class == ErrorPage || d.Class == Redirect || len(d.Agents) == 0 {
		return nil
	}
	var lines []HeaderLine
	generic := d.Agents[0].Values
	if d.Agents[0].Name == "robots" {
		generic = d.generic().values()
	}
	if c := joinValues(generic); c != "" {
		lines = append(lines, HeaderLine{Content: c})
	}
	inGeneric := map[string]bool{}
	for _, v := range generic {
		inGeneric[v.Token] = true
	}
	for _, a := range d.Agents[1:] {
		var toks []string
		for _, v := range a.Values {
			// nocache is moot after a generic noarchive (see generic).
			moot := v.Token == "nocache" && inGeneric["noarchive"]
			if v.Source.Kind != FromDefault && !inGeneric[v.Token] && !moot {
				toks = append(toks, v.Token)
			}
		}
		if len(toks) > 0 {
			lines = append(lines, HeaderLine{Agent: a.Name, Content: strings.Join(toks, ", ")})
		}
	}
	return lines
}

// IsDefault reports whether every value came from the defaults (such a file needs no _headers rule).
func (d Decision) IsDefault() bool {
	for _, a := range d.Agents {
		for _, v := range a.Values {
			if v.Source.Kind != FromDefault {
				return false
			}
		}
	}
	return true
}
