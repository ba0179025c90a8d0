package pipeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/robotstxt"
)

// Crawler is what `explain --agent` shows for one crawler and one path: the crawler catalogue's
// facts about it, whether robots.txt (as this run leaves it) lets it fetch the path and which line
// decided, and the AI usage preferences robots.txt states for it there.
type Crawler struct {
	Agent    string `json:"agent"`    // as asked: "GPTBot"
	Token    string `json:"token"`    // the product token Google's parser matches it by: "AI" for AI2Bot
	Operator string `json:"operator"` // from robotsmith's crawler catalogue; "" when the catalogue does not list it
	// Purposes are the catalogue's: training, ai-search, ai-input, search-engine, link-preview, other.
	Purposes      []string `json:"purposes"`
	RobotsTxtOnly bool     `json:"robots_txt_only"` // a token no crawler sends, read from robots.txt alone (Google-Extended)
	Sources       []string `json:"sources"`         // where the catalogue's facts come from (URLs)
	OwnGroup      bool     `json:"own_group"`       // a robots.txt group names it; else it obeys the "*" groups
	Allowed       bool     `json:"allowed"`         // robots.txt lets it fetch the path
	Rule          string   `json:"rule"`            // the line that decided ("public/robots.txt:14: Disallow: /"), or for /robots.txt the RFC; "" when none matched
	// ContentUsage is the robots.txt Content-Usage preference that applies to the path for it (from
	// the groups it obeys, the longest matching path; several of one length combined, any n
	// winning), ContentUsageFrom its lines; both "" when none applies, or when it may not fetch the
	// path (the preference applies only to what the group lets it fetch).
	ContentUsage     string `json:"content_usage"`
	ContentUsageFrom string `json:"content_usage_from"`
	// ContentSignal and ContentSignalFrom are the same for Cloudflare's Content-Signal lines.
	ContentSignal     string `json:"content_signal"`
	ContentSignalFrom string `json:"content_signal_from"`
}

// explainCrawler is the Crawler for agent at the absolute URL path u (the base URL's path included,
// as a crawler requests it).
func (ps *pass) explainCrawler(agent, u string) Crawler {
	c := Crawler{Agent: agent, Token: robotstxt.ProductToken(agent)}
	if cr, ok := crawlers.Default().Lookup(agent); ok {
		c.Operator, c.RobotsTxtOnly = cr.Operator, cr.RobotsTxtOnly
		for _, p := range cr.Purposes {
			c.Purposes = append(c.Purposes, p.String())
		}
		for _, s := range cr.Sources {
			c.Sources = append(c.Sources, s.URL)
		}
	}
	r := ps.out.robots
	shown := filepath.ToSlash(r.name)
	rc := r.file.Crawler() // a name Google's parser reads as no token obeys the "*" groups
	if c.Token != "" {
		rc = r.file.Crawler(c.Token)
	}
	c.OwnGroup = rc.Specific
	p := plan.CrawlPath(u)
	d := rc.Decide(p)
	c.Allowed, c.Rule = d.Allowed, implicitRule(p)
	if d.Rule != nil {
		c.Rule = fmt.Sprintf("%s:%d: %s: %s", shown, d.Rule.Num, d.Rule.Key, d.Rule.Value)
	}
	if d.Allowed {
		c.ContentUsage, c.ContentUsageFrom = r.preference(rc, "Content-Usage", p)
		c.ContentSignal, c.ContentSignalFrom = r.preference(rc, "Content-Signal", p)
	}
	return c
}

// preference is the value of the key lines ("Content-Usage") of the groups rc obeys that applies to
// path p, as draft-ietf-aipref-attach reads Content-Usage: a line may begin with a path, matched as
// Allow and Disallow paths are; the longest match applies (a line without a path matches every
// path, with length 0); lines of one length are combined, any n winning. It returns the value and
// where it comes from ("public/robots.txt:9"), or "" and "".
func (r *robotsTxt) preference(rc robotstxt.Crawler, key, p string) (string, string) {
	best := -1
	var vals []string
	var lines []string
	for _, rec := range r.file.Other {
		if !strings.EqualFold(rec.Key, key) || !slices.Contains(rc.Groups, rec.Group) {
			continue
		}
		pattern, v := "", rec.Value
		if strings.HasPrefix(v, "/") {
			path, rest := v, ""
			if i := strings.IndexAny(v, " \t"); i >= 0 {
				path, rest = v[:i], v[i:]
			}
			pattern, v = robotstxt.Escape(path), strings.TrimSpace(rest)
		}
		if v == "" {
			continue
		}
		if !robotstxt.Match(p, pattern) || len(pattern) < best {
			continue
		}
		if len(pattern) > best {
			best, vals, lines = len(pattern), nil, nil
		}
		vals = append(vals, v)
		lines = append(lines, fmt.Sprint(rec.Num))
	}
	if len(vals) == 0 {
		return "", ""
	}
	v := vals[0]
	if len(vals) > 1 && strings.EqualFold(key, aipref.HeaderName) {
		v = aipref.Combine(vals...)
	} else if len(vals) > 1 {
		v = strings.Join(vals, "; ")
	}
	return v, filepath.ToSlash(r.name) + ":" + strings.Join(lines, ", ")
}

// text is the crawler's part of an explanation, as explain prints it.
func (c Crawler) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  crawler %s", c.Agent)
	if c.Operator != "" {
		fmt.Fprintf(&b, ": %s; %s", c.Operator, strings.Join(c.Purposes, ", "))
		if c.RobotsTxtOnly {
			b.WriteString("; a robots.txt token only, sent by no crawler")
		}
	} else {
		b.WriteString(": not in robotsmith's crawler catalogue")
	}
	b.WriteString("\n")
	if !strings.EqualFold(c.Token, c.Agent) {
		if c.Token == "" {
			fmt.Fprintf(&b, "    Google's parser reads no product token in %q: it obeys the * groups\n", c.Agent)
		} else {
			fmt.Fprintf(&b, "    Google's parser reads it as %s\n", c.Token)
		}
	}
	if len(c.Sources) > 0 {
		fmt.Fprintf(&b, "    sources: %s\n", strings.Join(c.Sources, " "))
	}
	group := "the * groups"
	if c.OwnGroup {
		group = "its own groups"
	}
	switch {
	case c.Rule == "" && c.Allowed:
		fmt.Fprintf(&b, "    robots.txt: allowed (%s; no rule matches)\n", group)
	case c.Allowed:
		fmt.Fprintf(&b, "    robots.txt: allowed by %s (%s)\n", c.Rule, group)
	default:
		fmt.Fprintf(&b, "    robots.txt: disallowed by %s (%s)\n", c.Rule, group)
	}
	switch {
	case !c.Allowed:
		b.WriteString("    Content-Usage in robots.txt: none applies where it may not crawl\n")
	case c.ContentUsage == "":
		b.WriteString("    Content-Usage in robots.txt: none\n")
	default:
		fmt.Fprintf(&b, "    Content-Usage in robots.txt: %s (%s)\n", c.ContentUsage, c.ContentUsageFrom)
	}
	if c.ContentSignal != "" {
		fmt.Fprintf(&b, "    Content-Signal in robots.txt: %s (%s)\n", c.ContentSignal, c.ContentSignalFrom)
	}
	return b.String()
}

// blockedBy is a crawler that ai.block disallows, and the category that does.
type blockedBy struct{ crawler, category string }

// blockedCrawlers are the crawlers ai.block disallows, by their tokens as Google's parser reads
// them, lower case ("ai" for AI2Bot), as robots.txt's groups name them: each with its name as the
// catalogue spells it and the first category of ai.block that lists it.
func (ps *pass) blockedCrawlers() map[string]blockedBy {
	ai := ps.p.Config().AI
	out := map[string]blockedBy{}
	for _, c := range ai.Blocked(crawlers.Default()) {
		category := ""
		for _, p := range ai.Block {
			if c.Has(p) {
				category = p.String()
				break
			}
		}
		for _, t := range c.Tokens {
			k := strings.ToLower(robotstxt.ProductToken(t))
			if _, seen := out[k]; !seen && k != "" {
				out[k] = blockedBy{crawler: c.Name(), category: category}
			}
		}
	}
	return out
}
