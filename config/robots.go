package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/robotsblock"
)

// The `robots_txt:` and `ai:` keys (SPEC §9). Both are read into the types
// of the packages that render them, robotsblock and aipref, and checked
// with robotsblock.Check, so that a misspelt crawler or a rule-less group
// is an error at its line when the config is loaded, before any build.

// RobotsTxt is the `robots_txt:` key.
type RobotsTxt struct {
	Groups   []robotsblock.Group // in order
	Sitemaps bool                // a Sitemap: line for each sitemap of the site
	// Line is where `robots_txt:` is written, SitemapsLine where
	// `sitemaps:` is; 0 when absent.
	Line, SitemapsLine int
}

// RobotsInput is what robotsblock renders the block of robots.txt from:
// robots_txt and ai, with the site's sitemaps (URL paths as served, used
// when robots_txt.sitemaps is true) and its base URL, which the caller
// takes from the generator.
func (c *Config) RobotsInput(sitemaps []string, baseURL string) robotsblock.Input {
	in := robotsblock.Input{Groups: c.RobotsTxt.Groups, AI: c.AI, BaseURL: baseURL, SitemapsLine: c.RobotsTxt.SitemapsLine}
	if c.RobotsTxt.Sitemaps {
		in.Sitemaps = sitemaps
	}
	return in
}

func (p *parser) robotsTxt(n *node) RobotsTxt {
	r := RobotsTxt{Line: p.line(n)}
	if n.Kind != frontmatter.KindMap {
		p.errorf(n, "robots_txt: want a map (groups, sitemaps), not %s", what(n))
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

func (p *parser) robotsGroups(n *node) []robotsblock.Group {
	if n.Kind != frontmatter.KindList {
		p.errorf(n, "robots_txt: groups: want a list of groups (agents, disallow, allow), not %s", what(n))
		return nil
	}
	var out []robotsblock.Group
	for i, it := range n.List {
		key := fmt.Sprintf("robots_txt.groups[%d]", i+1)
		if it.Kind != frontmatter.KindMap {
			p.errorf(it, "%s: want a map (agents, disallow, allow), not %s", key, what(it))
			continue
		}
		g := robotsblock.Group{Line: p.line(it)}
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
				p.errorf(it, "%s: an empty value; leave it out", key)
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) boolean(n *node, key string) bool {
	if n.Kind != frontmatter.KindBool {
		p.errorf(n, "%s: want true or false", key)
	}
	return n.Bool
}

func (p *parser) ai(n *node) aipref.Policy {
	pol := aipref.Policy{Line: p.line(n)}
	if n.Kind != frontmatter.KindMap {
		p.errorf(n, "ai: want a map (train, search, input, block, meta), not %s", what(n))
		return pol
	}
	for _, k := range n.Keys {
		v := k.Value
		switch strings.ToLower(k.Name) {
		case "train":
			pol.Train = p.pref(v, "ai: train")
		case "search":
			pol.Search = p.pref(v, "ai: search")
		case "input":
			pol.Input = p.pref(v, "ai: input")
		case "block":
			pol.BlockLine = p.line(v)
			for _, it := range items(v) {
				s := p.str(it, "ai: block")
				if s == "" {
					continue
				}
				ps, err := aipref.ParseCategory(s)
				if err != nil {
					p.errorf(it, "ai: block: %v%s", err, blockWords.didYouMean(s))
				}
				pol.AddBlock(ps...)
			}
		case "meta":
			pol.Meta = p.boolean(v, "ai: meta")
			pol.MetaLine = p.line(v)
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
		p.errorf(n, "%s", msg)
	}
	return v
}

// checkRobots reports what robotsblock.Check finds in robots_txt and ai
// (misspelt crawlers, rule-less groups, bad paths, a crawler both named
// and blocked) as errors at their config lines.
func (p *parser) checkRobots(c *Config) {
	for _, err := range robotsblock.Check(c.RobotsInput(nil, "")) {
		line := 0
		var e *robotsblock.Error
		if errors.As(err, &e) {
			line, err = e.Line, e.Err
		}
		p.errs = append(p.errs, &Error{File: p.file, Line: line, Err: err})
	}
}
