package config

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/robotstxt"
)

// The `robots_txt:` and `ai:` keys (SPEC §9). They are read into Config's own types (RobotsTxt,
// its Groups, and aipref's Policy) and checked here, once, when the config is loaded, so that a
// misspelt crawler or a rule-less group is an error at its line before any build: validating the
// config's own values is config's job. The caller hands the checked values to robotsblock, which
// renders the block from them without checking them again.

// RobotsTxt is the `robots_txt:` key.
type RobotsTxt struct {
	Groups   []Group // in order
	Sitemaps bool    // a Sitemap: line for each sitemap of the site
	// Line is where `robots_txt:` is written, SitemapsLine where
	// `sitemaps:` is; 0 when absent.
	Line, SitemapsLine int
}

// Group is one group of robots_txt.groups.
type Group struct {
	Agents   []string // product tokens as written, "*" for every crawler
	Disallow []string // path patterns, in order
	Allow    []string
	Line     int // where the group is written; 0 when unknown
}

func (p *parser) robotsTxt(n *node) RobotsTxt {
	r := RobotsTxt{Line: p.line(n)}
	if n.Kind != frontmatter.KindMap {
		p.errorf(problem.ConfigWrongType, n, "robots_txt: want a map (groups, sitemaps), not %s", what(n))
		return r
	}
	for _, k := range n.Keys {
		v := k.Value
		switch strings.ToLower(k.Name) {
		case "groups":
			r.Groups = p.robotsGroups(v)
		case "sitemaps":
			r.Sitemaps = p.boolean(v, "robots_txt: sitemaps")
			r.SitemapsLine = p.line(v)
		default:
			p.unknownKey("robots_txt", k.Name, k.Off, robotsTxtKeys, "")
		}
	}
	return r
}

func (p *parser) robotsGroups(n *node) []Group {
	if n.Kind != frontmatter.KindList {
		p.errorf(problem.ConfigWrongType, n, "robots_txt: groups: want a list of groups (agents, disallow, allow), not %s", what(n))
		return nil
	}
	var out []Group
	for i, it := range n.List {
		key := fmt.Sprintf("robots_txt.groups[%d]", i+1)
		if it.Kind != frontmatter.KindMap {
			p.errorf(problem.ConfigWrongType, it, "%s: want a map (agents, disallow, allow), not %s", key, what(it))
			continue
		}
		g := Group{Line: p.line(it)}
		for _, k := range it.Keys {
			v := k.Value
			switch strings.ToLower(k.Name) {
			case "agents":
				g.Agents = p.nonEmpty(v, key+": agents")
			case "disallow":
				g.Disallow = p.nonEmpty(v, key+": disallow")
			case "allow":
				g.Allow = p.nonEmpty(v, key+": allow")
			default:
				p.unknownKey(key, k.Name, k.Off, groupKeys, "")
			}
		}
		out = append(out, g)
	}
	return out
}

// nonEmpty reads a string or a list of strings in which an empty string is
// an error rather than skipped: an empty Disallow means "allow everything",
// which nobody writes by leaving a list item blank.
func (p *parser) nonEmpty(n *node, key string) []string {
	out := []string{}
	for _, it := range items(n) {
		s := strings.TrimSpace(p.str(it, key))
		if s == "" {
			if _, ok := text(it); ok {
				p.errorf(problem.ConfigEmptyValue, it, "%s: an empty value; leave it out", key)
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) boolean(n *node, key string) bool {
	if n.Kind != frontmatter.KindBool {
		p.errorf(problem.ConfigWrongType, n, "%s: want true or false", key)
	}
	return n.Bool
}

func (p *parser) ai(n *node) aipref.Policy {
	pol := aipref.Policy{Line: p.line(n)}
	if n.Kind != frontmatter.KindMap {
		p.errorf(problem.ConfigWrongType, n, "ai: want a map (%s), not %s", aiKeys.list(), what(n))
		return pol
	}
	for _, k := range n.Keys {
		v := k.Value
		switch strings.ToLower(k.Name) {
		case "train":
			pol.Train, pol.TrainLine = p.pref(v, "ai: train"), p.line(v)
		case "search":
			pol.Search, pol.SearchLine = p.pref(v, "ai: search"), p.line(v)
		case "input":
			pol.Input, pol.InputLine = p.pref(v, "ai: input"), p.line(v)
		case "block":
			pol.BlockLine = p.line(v)
			for _, it := range items(v) {
				s := p.str(it, "ai: block")
				if s == "" {
					continue
				}
				ps, err := aipref.ParseCategory(s)
				if err != nil {
					p.errorf(problem.AICategoryUnknown, it, "ai: block: %v%s", err, blockWords.didYouMean(s))
				}
				pol.AddBlock(ps...)
			}
		case "meta":
			pol.Meta = p.boolean(v, "ai: meta")
			pol.MetaLine = p.line(v)
		case "placement":
			pol.PlacementLine = p.line(v)
			if w := p.oneOf(v, "ai: placement", placements); w != "" {
				pol.Placement, _ = aipref.ParsePlacement(w) // one of placements: no error
			}
		case "reserve":
			pol.Reserve = p.boolean(v, "ai: reserve")
			pol.ReserveLine = p.line(v)
		default:
			what, _ := aipref.Label(strings.ToLower(k.Name))
			p.unknownKey("ai", k.Name, k.Off, aiKeys, what)
		}
	}
	return pol
}

// pref reads yes or no; true and false are taken too, since TOML and JSON
// have no unquoted yes.
func (p *parser) pref(n *node, key string) aipref.Pref {
	if n.Kind == frontmatter.KindBool {
		if n.Bool {
			return aipref.Yes
		}
		return aipref.No
	}
	s, ok := text(n)
	if !ok {
		p.str(n, key) // reports what it is instead
		return aipref.Unset
	}
	v, err := aipref.ParsePref(s)
	if err != nil {
		msg := fmt.Sprintf("%s: %v", key, err)
		if what, ok := aipref.Label(strings.ToLower(strings.TrimSpace(s))); ok {
			msg += "; " + what
		} else {
			msg += prefWords.didYouMean(s)
		}
		p.errorf(problem.AIPreferenceInvalid, n, "%s", msg)
	}
	return v
}

// checkRobots reports every problem of robots_txt and ai as an error at its config line: a group
// without agents or rules, a token that is not one, a token that looks like a misspelt well-known
// crawler, a path that is not a path, and a crawler that robots_txt.groups names while ai.block also
// blocks it (RFC 9309 merges the two groups, so one would change the other).
func (p *parser) checkRobots(c *Config) {
	cat := crawlers.Default()
	// Tokens are compared as Google's parser reads them (robotstxt.ProductToken): to it,
	// User-agent: AI names the group of AI2Bot too.
	blocked := map[string]string{}
	for _, cr := range c.AI.Blocked(cat) {
		for _, t := range cr.Tokens {
			k := strings.ToLower(robotstxt.ProductToken(t))
			if _, seen := blocked[k]; !seen && k != "" {
				blocked[k] = cr.Name()
			}
		}
	}
	for i, g := range c.RobotsTxt.Groups {
		bad := func(code problem.Code, format string, args ...any) *Error {
			e := &Error{File: p.file, Line: g.Line, Code: code, Err: fmt.Errorf("robots_txt.groups[%d]: "+format, append([]any{i + 1}, args...)...)}
			p.errs = append(p.errs, e)
			return e
		}
		if len(g.Agents) == 0 {
			bad(problem.RobotsGroupNoAgents, `no agents (write agents: ["*"] for every crawler)`)
		}
		for _, a := range g.Agents {
			switch {
			case a == "*":
			case !crawlers.ValidToken(a):
				bad(problem.RobotsAgentInvalid, "agents: %q is not a user-agent token (letters, digits, '.', '-' and '_' only)", a)
			default:
				if want, ok := cat.Resembles(a); ok {
					bad(problem.RobotsAgentMisspelt, "agents: %q is not a crawler robotsmith knows; did you mean %q?", a, want)
				}
				if cr, ok := blocked[strings.ToLower(robotstxt.ProductToken(a))]; ok && robotstxt.ProductToken(a) != "" {
					also := ""
					if !strings.EqualFold(cr, a) {
						also = fmt.Sprintf(" (Google's parser reads both %s and %s as %s)", a, cr, robotstxt.ProductToken(a))
					}
					e := bad(problem.RobotsAgentAlsoBlocked, "agents: %s is also blocked by ai.block (line %d)%s; RFC 9309 merges every group that names a crawler, so name it in one place only", cr, c.AI.BlockLine, also)
					e.Related = []problem.Related{{Position: problem.Position{File: p.file, Line: c.AI.BlockLine}, Msg: "ai.block blocks " + cr}}
				}
			}
		}
		if len(g.Disallow)+len(g.Allow) == 0 {
			bad(problem.RobotsGroupNoRules, "no disallow or allow; a group without rules would run into the next group")
		}
		for _, list := range []struct {
			key   string
			paths []string
		}{{"disallow", g.Disallow}, {"allow", g.Allow}} {
			for _, path := range list.paths {
				if err := checkPath(path); err != "" {
					bad(problem.RobotsPathInvalid, "%s: %q %s", list.key, path, err)
				}
			}
		}
	}
}

// checkPath says what is wrong with a rule's path, "" when nothing is.
func checkPath(p string) string {
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "*") {
		return "must start with / (or *)"
	}
	for _, c := range []byte(p) {
		if c < 0x20 || c == 0x7f {
			return "holds a control character"
		}
	}
	return ""
}

// AIWarnings are the settings of ai that contradict each other (aipref.Policy.Conflicts, against
// robotsmith's crawler catalogue), each a warning at the config line of the setting it is about,
// naming the other setting's line as its other side: block: [training] with input: yes disallows
// Google-Extended, which Google reads for grounding Gemini's answers too.
func (c *Config) AIWarnings() []problem.Problem {
	var out []problem.Problem
	for _, cf := range c.AI.Conflicts(crawlers.Default()) {
		code := problem.AIBlockedUse
		switch cf.Kind {
		case aipref.Unsaid:
			code = problem.AIPreferenceUnsaid
		case aipref.NothingReserved:
			code = problem.AINothingReserved
		}
		line := cf.Line
		if line == 0 {
			line = c.AI.Line
		}
		w := problem.New(code, problem.Position{File: c.File, Line: line}, cf.String())
		if cf.OtherLine > 0 {
			w.Related = []problem.Related{{Position: problem.Position{File: c.File, Line: cf.OtherLine},
				Msg: fmt.Sprintf("ai.%s: %s", prefKey[cf.Use], cf.Pref)}}
		}
		out = append(out, *w)
	}
	return out
}

// prefKey is the key of ai that states the preference for an AI purpose.
var prefKey = map[crawlers.Purpose]string{crawlers.Training: "train", crawlers.AISearch: "search", crawlers.AIInput: "input"}
